// The mixing verdict of a sampler's draws (runtime/fit/Mixing.hpp): Stan's warning thresholds,
// and "failed" for chains that plainly did not mix, on constructed draws.
#include "runtime/fit/Mixing.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pvi {
namespace {

// `chains` chains of `n` draws of `dim` parameters; chain c's draws are N(offset c, 1).
SampledPosterior posterior(std::size_t chains, Eigen::Index n, Eigen::Index dim, double offset) {
  SampledPosterior p;
  p.globalDim = static_cast<std::size_t>(dim);
  p.draws.resize(n * static_cast<Eigen::Index>(chains), dim);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal;
  for (std::size_t c = 0; c < chains; ++c) {
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index k = 0; k < dim; ++k)
        p.draws(static_cast<Eigen::Index>(c) * n + i, k) = offset * c + normal(rng);
    p.chain.insert(p.chain.end(), static_cast<std::size_t>(n), c + 1);
    samplers::ChainResult r;
    r.chain = c + 1;
    p.chains.push_back(r);
  }
  return p;
}

const std::vector<std::string> kNames = {"a", "b"};

TEST(Mixing, IndependentDrawsMixWithoutWarnings) {
  const MixingSummary m = summariseMixing(posterior(4, 1000, 2, 0.0), kNames);
  EXPECT_FALSE(m.failed);
  EXPECT_LT(m.maxRhat, 1.01);
  EXPECT_GT(m.minEssBulk, 3000.0);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(Mixing, ChainsAroundDifferentValuesFail) {
  const MixingSummary m = summariseMixing(posterior(4, 1000, 2, 1.0), kNames);
  EXPECT_TRUE(m.failed);
  EXPECT_GT(m.maxRhat, 1.1);
  ASSERT_FALSE(m.warnings.empty());
  EXPECT_NE(m.warnings[0].find("did not mix"), std::string::npos) << m.warnings[0];
}

// Each chain stuck at its own value: within-chain variance 0, R-hat infinite, the worst case.
TEST(Mixing, ChainsStuckAtTheirOwnValuesFail) {
  SampledPosterior p = posterior(4, 100, 2, 0.0);
  for (Eigen::Index row = 0; row < p.draws.rows(); ++row) p.draws.row(row).setConstant(double(p.chain[row]));
  const MixingSummary m = summariseMixing(p, kNames);
  EXPECT_TRUE(m.failed);
}

TEST(Mixing, AParameterThatNeverMovedFails) {
  SampledPosterior p = posterior(4, 100, 2, 0.0);
  p.draws.col(1).setConstant(0.5);
  const MixingSummary m = summariseMixing(p, kNames);
  EXPECT_TRUE(m.failed);
  EXPECT_NE(m.warnings[0].find("'b' never moved"), std::string::npos) << m.warnings[0];
}

TEST(Mixing, DivergencesAndTreeDepthHitsWarn) {
  SampledPosterior p = posterior(4, 1000, 2, 0.0);
  p.chains[1].divergences = 3;
  p.chains[2].treeDepthHits = 5;
  const MixingSummary m = summariseMixing(p, kNames);
  EXPECT_FALSE(m.failed);
  EXPECT_EQ(m.divergences, 3u);
  EXPECT_EQ(m.treeDepthHits, 5u);
  ASSERT_EQ(m.warnings.size(), 2u);
  EXPECT_NE(m.warnings[0].find("3 of 4000 transitions after warm-up diverged"), std::string::npos);
  EXPECT_NE(m.warnings[1].find("maximum tree depth"), std::string::npos);
}

}  // namespace
}  // namespace pvi
