// Warm-up: dual averaging finds the step size of the target acceptance; Stan's windows end where
// Stan's do; both metric estimates recover a diagonal Gaussian's variances over four orders of
// magnitude.
#include <gtest/gtest.h>

#include <cmath>

#include "SamplerTestSupport.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::samplers {
namespace {

TEST(DualAveraging, ConvergesToTheTargetAcceptance) {
  // An acceptance statistic that falls with the step size: a(eps) = exp(-eps); 0.8 at -log 0.8.
  StepSizeAdaptation a;
  a.restart(1.0);
  double eps = 1.0;
  for (int i = 0; i < 5000; ++i) eps = a.learn(std::exp(-eps));
  EXPECT_NEAR(a.final(), -std::log(0.8), 0.01 * -std::log(0.8));
}

// A warm-up too short to learn anything after the last restart keeps the restart's step size.
TEST(DualAveraging, NothingLearntKeepsTheRestartStepSize) {
  StepSizeAdaptation a;
  a.restart(0.37);
  EXPECT_EQ(a.final(), 0.37);
  a.learn(0.9);
  EXPECT_NE(a.final(), 0.37);
}

TEST(WindowedAdaptation, WindowsEndWhereStansDo) {
  // Stan's defaults for 1000 warm-up iterations: buffers of 75 and 50, windows of 25, 50, 100,
  // 200 and 500 iterations, ending after iterations 100, 150, 250, 450 and 950 (1-based).
  auto adaptation = makeWindowedAdaptation(1000, WindowOptions{});
  PhasePoint z(2);
  EuclideanMetric metric(2, MetricKind::Diagonal);
  adaptation->start(z, metric);
  std::vector<std::size_t> ends;
  std::mt19937_64 rng(1);
  for (std::size_t i = 0; i < 1000; ++i) {
    z.q << support::uniform01(rng), support::uniform01(rng);
    if (adaptation->observe(i, z, metric).metricChanged) ends.push_back(i + 1);
  }
  EXPECT_EQ(ends, (std::vector<std::size_t>{100, 150, 250, 450, 950}));
}

class MetricEstimate : public ::testing::TestWithParam<Adaptation> {};

TEST_P(MetricEstimate, RecoversDiagonalVariances) {
  const Eigen::Index d = 20;
  Eigen::VectorXd variances(d);
  for (Eigen::Index i = 0; i < d; ++i) variances[i] = std::pow(10.0, -2.0 + 4.0 * static_cast<double>(i) / (d - 1));
  const testing::GaussianTarget g(Eigen::VectorXd::Zero(d), variances.asDiagonal());
  SamplerOptions o;
  o.adaptation = GetParam();
  o.chains = 2;
  o.samples = 10;
  for (const ChainResult& c : sample(g.target, o)) {
    const Eigen::ArrayXd ratio = c.metric.inverseDiagonal().array() / variances.array();
    EXPECT_GT(ratio.minCoeff(), 0.7) << "chain " << c.chain;
    EXPECT_LT(ratio.maxCoeff(), 1.4) << "chain " << c.chain;
  }
}

INSTANTIATE_TEST_SUITE_P(Nuts, MetricEstimate, ::testing::Values(Adaptation::Fisher, Adaptation::Windowed));

}  // namespace
}  // namespace pvi::samplers
