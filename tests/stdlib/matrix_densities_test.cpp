// The densities of correlation and covariance matrices against independent one-dimensional
// references (their values and gradients in general are checked by the kernel table's generic
// checks, kernel_cases.cpp):
// - lkj_corr for K = 2 is the density of the correlation r, (r + 1) / 2 ~ beta(eta, eta) (Boost),
//   halved; for K = 3 and eta = 1 it is uniform, 2 / pi^2 (the volume of the 3 x 3 correlation
//   matrices is pi^2 / 2);
// - wishart(w | nu, s) for K = 1 is the gamma density with shape nu / 2 and scale 2 s (Boost);
// - inv_wishart(w | nu, s) for K = 1 is the inverse gamma with shape nu / 2 and scale s / 2.
#include <gtest/gtest.h>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/inverse_gamma.hpp>
#include <cmath>

#include "stdlib/kernels/kernels.h"

namespace {

TEST(LkjCorr, TwoByTwoIsABetaDensityOfTheCorrelation) {
  for (double eta : {0.5, 1.0, 2.0, 7.5})
    for (double r : {-0.9, -0.2, 0.0, 0.35, 0.99}) {
      const double omega[] = {1.0, r, r, 1.0};
      const boost::math::beta_distribution<double> beta(eta, eta);
      const double expected = std::log(boost::math::pdf(beta, (r + 1) / 2)) - std::log(2.0);
      EXPECT_NEAR(pvi_lkj_corr_lpdf(4, omega, &eta), expected, 1e-13 * (1 + std::fabs(expected)))
          << "eta " << eta << " r " << r;
    }
}

TEST(LkjCorr, ThreeByThreeWithEtaOneIsUniform) {
  const double one = 1.0, pi = 3.14159265358979323846;
  const double omega[] = {1.0, 0.3, -0.2, 0.3, 1.0, 0.5, -0.2, 0.5, 1.0};
  EXPECT_NEAR(pvi_lkj_corr_lpdf(9, omega, &one), std::log(2 / (pi * pi)), 1e-13);
}

TEST(Wishart, OneByOneIsAGammaDensity) {
  for (double nu : {0.5, 1.0, 3.0, 40.0})
    for (double s : {0.1, 1.0, 7.0})
      for (double w : {1e-3, 0.4, 2.0, 30.0}) {
        const boost::math::gamma_distribution<double> gamma(nu / 2, 2 * s);
        const double expected = std::log(boost::math::pdf(gamma, w));
        EXPECT_NEAR(pvi_wishart_lpdf(1, &w, &nu, &s), expected, 1e-12 * (1 + std::fabs(expected)))
            << "nu " << nu << " s " << s << " w " << w;
      }
}

TEST(InvWishart, OneByOneIsAnInverseGammaDensity) {
  for (double nu : {0.5, 1.0, 3.0, 40.0})
    for (double s : {0.1, 1.0, 7.0})
      for (double w : {1e-2, 0.4, 2.0, 30.0}) {
        const boost::math::inverse_gamma_distribution<double> inverseGamma(nu / 2, s / 2);
        const double expected = std::log(boost::math::pdf(inverseGamma, w));
        EXPECT_NEAR(pvi_inv_wishart_lpdf(1, &w, &nu, &s), expected, 1e-12 * (1 + std::fabs(expected)))
            << "nu " << nu << " s " << s << " w " << w;
      }
}

}  // namespace
