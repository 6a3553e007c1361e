// NUTS on Gaussian targets: every coordinate's mean and variance within 4 Monte Carlo standard
// errors (from the draws' own ESS) of the exact values. A biased sampler (a wrong acceptance
// rule, a wrong metric in the kinetic energy, a wrong U-turn criterion) moves the variances by
// far more than that: with 4 x 1000 draws one MCSE of a variance is about 2-3% of it.
#include <gtest/gtest.h>

#include "SamplerTestSupport.hpp"

namespace pvi::samplers {
namespace {

using testing::column;
using testing::GaussianTarget;
using testing::mcseDistance;

// 4 MCSE per coordinate: with up to 200 checks per test, a correct sampler fails one with
// probability about 200 x 6e-5 ~ 1%, and the seeds are fixed.
constexpr double kTolerance = 4.0;

void expectMoments(const GaussianTarget& g, const std::vector<ChainResult>& chains) {
  for (Eigen::Index k = 0; k < g.mu.size(); ++k) {
    const Eigen::MatrixXd x = column(chains, k);
    EXPECT_LT(mcseDistance(x, g.mu[k]), kTolerance) << "mean of coordinate " << k;
    const Eigen::MatrixXd squared = (x.array() - g.mu[k]).square().matrix();
    EXPECT_LT(mcseDistance(squared, g.sigma(k, k)), kTolerance) << "variance of coordinate " << k;
  }
  std::size_t divergences = 0;
  for (const ChainResult& c : chains) divergences += c.divergences;
  EXPECT_EQ(divergences, 0u);
}

struct Case {
  const char* name;
  Eigen::Index dim;
  bool correlated;
  MetricKind metric;
  Adaptation adaptation;
};

class GaussianTargets : public ::testing::TestWithParam<Case> {};

TEST_P(GaussianTargets, MeansAndVariancesWithinMonteCarloError) {
  const Case& c = GetParam();
  Eigen::MatrixXd sigma = Eigen::MatrixXd::Identity(c.dim, c.dim);
  if (c.correlated) sigma = c.dim == 2 ? Eigen::MatrixXd{{1.0, 0.9}, {0.9, 1.0}} : testing::randomCovariance(c.dim, 7);
  const GaussianTarget g(Eigen::VectorXd::LinSpaced(c.dim, -1.0, 2.0), sigma);
  SamplerOptions o;
  o.seed = 11;
  o.metric = c.metric;
  o.adaptation = c.adaptation;
  expectMoments(g, sample(g.target, o));
}

INSTANTIATE_TEST_SUITE_P(
    Nuts, GaussianTargets,
    ::testing::Values(Case{"StandardNormal2", 2, false, MetricKind::Diagonal, Adaptation::Fisher},
                      Case{"StandardNormal100", 100, false, MetricKind::Diagonal, Adaptation::Fisher},
                      Case{"Correlated2", 2, true, MetricKind::Diagonal, Adaptation::Fisher},
                      Case{"Correlated100", 100, true, MetricKind::Diagonal, Adaptation::Fisher},
                      Case{"Correlated2Windowed", 2, true, MetricKind::Diagonal, Adaptation::Windowed},
                      Case{"Correlated100Windowed", 100, true, MetricKind::Diagonal, Adaptation::Windowed},
                      Case{"Correlated100Dense", 100, true, MetricKind::Dense, Adaptation::Windowed}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace pvi::samplers
