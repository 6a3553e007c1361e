// The FFT autocovariance against its definition, and ESS at a realistic size. The small example's
// values were printed by (R 4.2.2, posterior 1.4.0):
//   Rscript -e 'cat(sprintf("%.17g", posterior:::autocovariance(c(3, 1, 4, 1, 5, 9, 2, 6))), "\n")'
#include "runtime/diagnostics/Autocovariance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "runtime/diagnostics/Ess.hpp"

namespace pvi::diagnostics {
namespace {

TEST(Autocovariance, MatchesPosterior) {
  const Eigen::VectorXd x = (Eigen::VectorXd(8) << 3, 1, 4, 1, 5, 9, 2, 6).finished();
  const double expected[] = {6.609375,
                             -1.158203125,
                             0.29296874999999983,
                             0.96289062500000022,
                             -2.7578125000000004,
                             0.14648437500000003,
                             -0.55859374999999989,
                             -0.23242187500000025};
  const Eigen::VectorXd gamma = autocovariance(x);
  ASSERT_EQ(gamma.size(), 8);
  for (Eigen::Index t = 0; t < 8; ++t) EXPECT_NEAR(gamma[t], expected[t], 1e-13) << t;
}

TEST(Autocovariance, MatchesTheDirectSumAtEveryLag) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  for (const Eigen::Index n : {1, 2, 3, 17, 64, 65, 1000}) {
    SCOPED_TRACE(n);
    Eigen::VectorXd x(n);
    for (Eigen::Index i = 0; i < n; ++i) x[i] = (i > 0 ? 0.8 * x[i - 1] : 0.0) + normal(rng);
    const Eigen::VectorXd c = x.array() - x.mean();
    const Eigen::VectorXd gamma = autocovariance(x);
    for (Eigen::Index t = 0; t < n; ++t) {
      const double direct = c.head(n - t).dot(c.tail(n - t)) / static_cast<double>(n);
      EXPECT_NEAR(gamma[t], direct, 1e-12 * c.squaredNorm() / static_cast<double>(n) + 1e-300) << t;
    }
  }
}

TEST(Autocovariance, ConstantChainIsAllZero) {
  EXPECT_EQ(autocovariance(Eigen::VectorXd::Constant(5, 0.1)), Eigen::VectorXd::Zero(5));
  EXPECT_EQ(autocovariance(Eigen::VectorXd(0)).size(), 0);
}

// 4 chains x 10^4 draws of AR(1) with phi = 0.5: the ESS is near S (1 - phi) / (1 + phi) = S / 3.
TEST(Ess, LongChainsAreQuickAndNearTheTheoreticalValue) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  const double phi = 0.5;
  Eigen::MatrixXd x(10000, 4);
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    double previous = normal(rng) / std::sqrt(1 - phi * phi);
    for (Eigen::Index i = 0; i < x.rows(); ++i) x(i, c) = previous = phi * previous + normal(rng);
  }
  const double theoretical = static_cast<double>(x.size()) * (1 - phi) / (1 + phi);
  EXPECT_NEAR(essBasic(x) / theoretical, 1.0, 0.1);
  EXPECT_NEAR(essBulk(x) / theoretical, 1.0, 0.1);
}

}  // namespace
}  // namespace pvi::diagnostics
