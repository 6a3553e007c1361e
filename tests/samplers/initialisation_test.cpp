// Where chains start (runtime/samplers/nuts/Sampler.hpp): a mixture of Gaussians shares the chains
// among its components by weight, stratified, and each chain draws its start from its component.
#include <gtest/gtest.h>

#include <vector>

#include "SamplerTestSupport.hpp"
#include "runtime/samplers/nuts/Sampler.hpp"

namespace pvi::samplers::testing {
namespace {

std::vector<GaussianStart> weighted(const std::vector<double>& weights) {
  std::vector<GaussianStart> mixture;
  for (double w : weights) mixture.push_back({w, Eigen::VectorXd::Zero(1), Eigen::MatrixXd::Identity(1, 1)});
  return mixture;
}

std::vector<std::size_t> components(const std::vector<GaussianStart>& mixture, std::size_t chains) {
  std::vector<std::size_t> c;
  for (std::size_t chain = 1; chain <= chains; ++chain) c.push_back(startComponent(mixture, chain, chains));
  return c;
}

TEST(Initialisation, ChainsShareTheComponentsByWeight) {
  EXPECT_EQ(components(weighted({1.0, 1.0}), 4), (std::vector<std::size_t>{0, 0, 1, 1}));
  EXPECT_EQ(components(weighted({1.0, 3.0}), 4), (std::vector<std::size_t>{0, 1, 1, 1}));
  EXPECT_EQ(components(weighted({1.0, 1e-17}), 4), (std::vector<std::size_t>{0, 0, 0, 0}));
  EXPECT_EQ(components(weighted({1.0, 1.0, 1.0}), 3), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(components(weighted({1.0}), 4), (std::vector<std::size_t>{0, 0, 0, 0}));
  EXPECT_EQ(components(weighted({1.0, 1.0}), 1), (std::vector<std::size_t>{0}));  // a tie: the first
  EXPECT_EQ(components(weighted({0.0, 1.0}), 2), (std::vector<std::size_t>{1, 1}));
}

// A target with two unit-normal modes 80 sds apart: each chain stays in the mode its component
// starts it in (no transition crosses the gap), so its draws show which component it took.
TEST(Initialisation, EachChainStartsInItsComponent) {
  Target target;
  target.dim = 1;
  // Two well separated unit normals: log(N(x; -40, 1) + N(x; 40, 1)).
  target.logDensity = [](const double* x, double* g) {
    const double a = -0.5 * (x[0] + 40.0) * (x[0] + 40.0), b = -0.5 * (x[0] - 40.0) * (x[0] - 40.0);
    const double m = std::max(a, b), pa = std::exp(a - m), pb = std::exp(b - m);
    g[0] = (pa * -(x[0] + 40.0) + pb * -(x[0] - 40.0)) / (pa + pb);
    return m + std::log(pa + pb);
  };
  SamplerOptions o;
  o.chains = 4;
  o.warmup = 50;
  o.samples = 20;
  o.threads = 1;
  o.initMixture = {{1.0, Eigen::VectorXd::Constant(1, -40.0), Eigen::MatrixXd::Identity(1, 1)},
                   {1.0, Eigen::VectorXd::Constant(1, 40.0), Eigen::MatrixXd::Identity(1, 1)}};
  const std::vector<ChainResult> chains = sample(target, o);
  ASSERT_EQ(chains.size(), 4u);
  for (const ChainResult& c : chains) {
    const double side = c.chain <= 2 ? -40.0 : 40.0;
    EXPECT_LT((c.draws.array() - side).abs().maxCoeff(), 6.0) << "chain " << c.chain;
  }
}

TEST(Initialisation, RefusesAMixtureOfTheWrongDimensionOrWeight) {
  GaussianTarget g(Eigen::VectorXd::Zero(2), Eigen::MatrixXd::Identity(2, 2));
  SamplerOptions o;
  o.initMixture = weighted({1.0});  // dimension 1, target 2
  EXPECT_THROW(sample(g.target, o), std::invalid_argument);
  o.initMixture = {{-1.0, Eigen::VectorXd::Zero(2), Eigen::MatrixXd::Identity(2, 2)}};
  EXPECT_THROW(sample(g.target, o), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::samplers::testing
