// cholesky_factor_corr[K] (stdlib/kernels/arith/cholesky_corr_transform.cpp) and
// lkj_corr_cholesky (stdlib/kernels/distributions/lkj_corr_cholesky.cpp):
// - the transform maps into Cholesky factors of correlation matrices (lower triangular, positive
//   diagonal, rows of unit length), matrix by matrix, and its inverse returns the unconstrained
//   point;
// - its log-Jacobian is log|det J| of the map to the elements below the diagonal (the density's
//   coordinates), by central finite differences;
// - its gradient kernel matches finite differences of sum(g_out * L) + g_lj * log|J|;
// - the inverse refuses what is not such a factor;
// - the LKJ density's normalising constant: for K = 2 the correlation's density is Boost's
//   beta(eta, eta) density of (r + 1) / 2, halved; for K = 3 and eta = 1 the density is uniform,
//   2 / pi^2 (the volume of 3 x 3 correlation matrices is pi^2 / 2), times the Jacobian L_22.
#include <gtest/gtest.h>

#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/kernels.h"
#include "transform_checks.hpp"

namespace {

int64_t freeCount(int64_t k) { return k * (k - 1) / 2; }

std::vector<double> choleskyOf(const std::vector<double>& u, int64_t k, int64_t matrices, double* lj = nullptr) {
  std::vector<double> L(static_cast<size_t>(k * k * matrices));
  const double kk = static_cast<double>(k);
  const double l = pvi_tf_cholesky_factor_corr(k * k * matrices, u.data(), &kk, 0, L.data());
  if (lj) *lj = l;
  return L;
}

// The elements below the diagonal of the first matrix, row by row (the transform's coordinates).
std::vector<double> belowDiagonal(const std::vector<double>& L, int64_t k) {
  std::vector<double> out;
  for (int64_t i = 1; i < k; ++i)
    for (int64_t j = 0; j < i; ++j) out.push_back(L[static_cast<size_t>(i + j * k)]);
  return out;
}

TEST(CholeskyCorrTransform, MapsIntoCholeskyFactorsOfCorrelationMatricesAndInverts) {
  std::mt19937_64 rng(5);
  for (int64_t k : {1, 2, 3, 5, 8}) {
    const int64_t matrices = 3;
    const std::vector<double> u = pvi::test::normalValues(static_cast<size_t>(freeCount(k) * matrices), rng, 1.2);
    const std::vector<double> L = choleskyOf(u, k, matrices);
    for (int64_t m = 0; m < matrices; ++m) {
      const double* x = L.data() + m * k * k;
      for (int64_t i = 0; i < k; ++i) {
        double norm = 0;
        for (int64_t j = 0; j < k; ++j) {
          const double v = x[i + j * k];
          if (j > i) {
            EXPECT_EQ(v, 0.0);
          }
          norm += v * v;
        }
        EXPECT_GT(x[i + i * k], 0.0);
        EXPECT_NEAR(norm, 1.0, 1e-14) << "K " << k << " row " << i;
      }
    }
    std::vector<double> back(u.size());
    const double kk = static_cast<double>(k);
    ASSERT_EQ(pvi_tf_cholesky_factor_corr_inv(static_cast<int64_t>(u.size()), L.data(), &kk, 0, back.data()), 0) << k;
    for (size_t i = 0; i < u.size(); ++i) EXPECT_NEAR(back[i], u[i], 1e-9 * (1 + std::fabs(u[i]))) << k << " " << i;
  }
}

TEST(CholeskyCorrTransform, LogJacobianIsTheLogDeterminant) {
  std::mt19937_64 rng(9);
  for (int64_t k : {2, 3, 4, 6})
    pvi::test::expectLogJacobianIsLogDeterminant(
        [k](const std::vector<double>& u, double* lj) { return choleskyOf(u, k, 1, lj); },
        [k](const std::vector<double>& L) { return belowDiagonal(L, k); },
        pvi::test::normalValues(static_cast<size_t>(freeCount(k)), rng, 0.8), "K " + std::to_string(k));
}

TEST(CholeskyCorrTransform, GradientMatchesFiniteDifferences) {
  std::mt19937_64 rng(16);
  for (int64_t k : {2, 3, 5}) {
    const int64_t matrices = 2;
    const std::vector<double> u = pvi::test::normalValues(static_cast<size_t>(freeCount(k) * matrices), rng, 1.0);
    const std::vector<double> gOut = pvi::test::normalValues(static_cast<size_t>(k * k * matrices), rng, 1.0);
    const double gLj = 0.7;
    const std::vector<double> x = choleskyOf(u, k, matrices);
    std::vector<double> g(u.size(), 0.0);
    const double kk = static_cast<double>(k);
    pvi_tf_cholesky_factor_corr_grad(k * k * matrices, u.data(), &kk, 0, x.data(), gOut.data(), gLj, g.data(), nullptr);
    pvi::test::expectGradientMatchesFiniteDifferences(
        [&](const std::vector<double>& p, double* lj) { return choleskyOf(p, k, matrices, lj); }, u, gOut, gLj, g,
        "K " + std::to_string(k));
  }
}

TEST(CholeskyCorrTransform, InverseRefusesWhatIsNotACholeskyFactorOfACorrelationMatrix) {
  double u[3];
  const double two = 2.0;
  const double upper[] = {1.0, 0.6, 0.1, 0.8};  // column-major: element (1, 2) is 0.1
  EXPECT_EQ(pvi_tf_cholesky_factor_corr_inv(1, upper, &two, 0, u), 3);
  const double negativeDiagonal[] = {1.0, 0.6, 0.0, -0.8};
  EXPECT_EQ(pvi_tf_cholesky_factor_corr_inv(1, negativeDiagonal, &two, 0, u), 4);
  const double notUnitRow[] = {1.0, 0.6, 0.0, 0.7};
  EXPECT_EQ(pvi_tf_cholesky_factor_corr_inv(1, notUnitRow, &two, 0, u), 4);
  const double valid[] = {1.0, 0.6, 0.0, 0.8};
  ASSERT_EQ(pvi_tf_cholesky_factor_corr_inv(1, valid, &two, 0, u), 0);
  EXPECT_NEAR(u[0], std::atanh(0.6), 1e-15);
}

TEST(LkjCorrCholesky, TwoByTwoIsABetaDensityOfTheCorrelation) {
  for (double eta : {0.5, 1.0, 2.0, 7.5})
    for (double r : {-0.9, -0.2, 0.0, 0.35, 0.99}) {
      const double L[] = {1.0, r, 0.0, std::sqrt(1 - r * r)};
      const boost::math::beta_distribution<double> beta(eta, eta);
      const double expected = std::log(boost::math::pdf(beta, (r + 1) / 2)) - std::log(2.0);
      EXPECT_NEAR(pvi_lkj_corr_cholesky_lpdf(4, L, &eta), expected, 1e-13 * (1 + std::fabs(expected)))
          << "eta " << eta << " r " << r;
    }
}

TEST(LkjCorrCholesky, ThreeByThreeWithEtaOneIsUniformOverCorrelationMatrices) {
  std::mt19937_64 rng(21);
  const double one = 1.0, pi = 3.14159265358979323846;
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<double> L = choleskyOf(pvi::test::normalValues(3, rng, 0.7), 3, 1);
    // The density of Omega is 2 / pi^2; the Jacobian of Omega(L) is L_22.
    EXPECT_NEAR(pvi_lkj_corr_cholesky_lpdf(9, L.data(), &one), std::log(2 / (pi * pi)) + std::log(L[4]), 1e-13);
  }
}

}  // namespace
