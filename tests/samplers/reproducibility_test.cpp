// The draws are a function of the seed alone: the same with one thread as with four, different
// with another seed; and each chain's counts add up.
#include <gtest/gtest.h>

#include <atomic>

#include "SamplerTestSupport.hpp"

namespace pvi::samplers {
namespace {

TEST(Reproducibility, SameSeedSameDrawsWhateverTheThreads) {
  const testing::GaussianTarget g(Eigen::VectorXd::Zero(5), testing::randomCovariance(5, 3));
  SamplerOptions o;
  o.warmup = 200;
  o.samples = 200;
  o.seed = 42;
  o.threads = 1;
  const std::vector<ChainResult> one = sample(g.target, o);
  o.threads = 4;
  const std::vector<ChainResult> four = sample(g.target, o);
  ASSERT_EQ(one.size(), 4u);
  for (std::size_t c = 0; c < one.size(); ++c) {
    EXPECT_EQ(one[c].chain, c + 1);
    EXPECT_TRUE(one[c].draws == four[c].draws) << "chain " << c + 1;
    EXPECT_EQ(one[c].stepSize, four[c].stepSize);
    EXPECT_TRUE(one[c].columns.leapfrogs == four[c].columns.leapfrogs);
  }
  EXPECT_FALSE(one[0].draws == one[1].draws);  // chains have their own streams
  o.seed = 43;
  EXPECT_FALSE(sample(g.target, o)[0].draws == one[0].draws);
}

TEST(Reproducibility, CountsAddUp) {
  const testing::GaussianTarget g(Eigen::VectorXd::Zero(3), Eigen::MatrixXd::Identity(3, 3));
  SamplerOptions o;
  o.chains = 2;
  o.warmup = 100;
  o.samples = 150;
  for (const ChainResult& c : sample(g.target, o)) {
    EXPECT_EQ(c.draws.rows(), 150);
    EXPECT_EQ(static_cast<std::size_t>(c.columns.leapfrogs.sum()), c.samplingGradients);
    EXPECT_GT(c.warmupGradients, 100u);
    EXPECT_TRUE((c.columns.treeDepth.array() >= 1).all());
    // Depth d counts the completed doublings (2^d - 1 steps); a last doubling cut short by a
    // U-turn inside it adds fewer than 2^d more.
    for (Eigen::Index k = 0; k < c.columns.treeDepth.size(); ++k) {
      const int d = c.columns.treeDepth[k];
      EXPECT_GE(c.columns.leapfrogs[k], (1 << d) - 1);
      EXPECT_LE(c.columns.leapfrogs[k], (1 << (d + 1)) - 1);
    }
    EXPECT_TRUE((c.columns.stepSize.array() == c.stepSize).all());
  }
}

TEST(Options, BadOptionsAreRefusedByName) {
  const testing::GaussianTarget g(Eigen::VectorXd::Zero(2), Eigen::MatrixXd::Identity(2, 2));
  const auto message = [&](SamplerOptions o) {
    try {
      sample(g.target, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SamplerOptions o;
  o.chains = 0;
  EXPECT_NE(message(o).find("--chains"), std::string::npos);
  o = {};
  o.dualAveraging.delta = 1.0;
  EXPECT_NE(message(o).find("--adapt-delta"), std::string::npos);
  o = {};
  o.metric = MetricKind::Dense;
  EXPECT_NE(message(o).find("windowed"), std::string::npos);
  o = {};
  o.nuts.maxDepth = 0;
  EXPECT_NE(message(o).find("--max-depth"), std::string::npos);
}

// A target that throws in one chain ends the run with that error, and the other chains stop.
TEST(Options, AnErrorInAChainIsReported) {
  Target t;
  t.dim = 2;
  std::atomic<int> calls{0};
  t.logDensity = [&](const double* x, double* g) {
    if (++calls == 2000) throw std::runtime_error("the model failed");
    g[0] = -x[0], g[1] = -x[1];
    return -0.5 * (x[0] * x[0] + x[1] * x[1]);
  };
  SamplerOptions o;
  o.threads = 2;
  o.samples = 100000;  // long enough that the others are still running when it fails
  try {
    sample(t, o);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the model failed");
  }
  // The other chains stopped at once: far fewer evaluations than 4 x 101,000 transitions.
  EXPECT_LT(calls.load(), 100000);
}

TEST(Options, AStartWithoutFiniteDensityIsAnError) {
  Target t;
  t.dim = 1;
  t.logDensity = [](const double*, double* g) {
    g[0] = 0.0;
    return -std::numeric_limits<double>::infinity();
  };
  SamplerOptions o;
  o.chains = 1;
  EXPECT_THROW(sample(t, o), SamplerError);
}

}  // namespace
}  // namespace pvi::samplers
