// Importance resampling of a fit's draws (runtime/fit/ImportanceResampling.hpp): systematic
// resampling's counts, and a resample of draws from a q that is too narrow and misplaced against
// a known Gaussian p, whose moments must come out as p's within their Monte Carlo error. That the
// resample keeps the draws joint (every table takes the same rows) is tested with the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>

#include "runtime/fit/ImportanceResampling.hpp"

namespace pvi {
namespace {

TEST(SystematicResample, EachIndexAppearsFloorOrCeilOfItsShare) {
  const Eigen::VectorXd w = (Eigen::VectorXd(5) << 0.1, 0.25, 0.05, 0.4, 0.2).finished();
  for (double u : {0.0, 0.3, 0.999}) {
    const std::vector<Eigen::Index> rows = systematicResample(w.array().log().matrix(), 37, u);
    ASSERT_EQ(rows.size(), 37u);
    for (Eigen::Index i = 0; i < w.size(); ++i) {
      const auto count = std::count(rows.begin(), rows.end(), i);
      EXPECT_GE(count, std::floor(37 * w[i]) - 1e-9) << "index " << i << ", u " << u;
      EXPECT_LE(count, std::ceil(37 * w[i]) + 1e-9) << "index " << i << ", u " << u;
    }
    EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  }
  // Equal weights: every draw once.
  const std::vector<Eigen::Index> same = systematicResample(Eigen::VectorXd::Zero(8), 8, 0.5);
  for (Eigen::Index i = 0; i < 8; ++i) EXPECT_EQ(same[static_cast<std::size_t>(i)], i);
}

// Candidates x ~ q = N(0, 1) against p = N(0.3, pSd^2): x, log p and log q.
struct Candidates {
  Eigen::VectorXd x, logP, logG;
};
Candidates narrowCandidates(Eigen::Index n, double pSd) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  Candidates c{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const double x = normal(rng), r = (x - 0.3) / pSd;
    c.x[i] = x;
    c.logP[i] = -0.5 * r * r - std::log(pSd);
    c.logG[i] = -0.5 * x * x;
  }
  return c;
}

TEST(ImportanceResampling, MovesANarrowQsDrawsToTheModel) {
  const Candidates c = narrowCandidates(80000, 1.2);
  const Eigen::Index n = 20000;
  const ImportanceResampling r = importanceResample(c.logP, c.logG, true, 0.7, n, 5);
  ASSERT_TRUE(r.applied);
  EXPECT_LT(r.khat, 0.7);
  EXPECT_EQ(r.candidates, 80000u);
  ASSERT_EQ(r.rows.size(), static_cast<std::size_t>(n));
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = c.x[r.rows[static_cast<std::size_t>(i)]];
  // n draws resampled from candidates whose weights have an effective size m carry about
  // 1 / (1 / n + 1 / m) draws' worth of information: 4 standard errors of that.
  const double effective = 1.0 / (1.0 / static_cast<double>(n) + 1.0 / r.effectiveDraws);
  const double se = 1.2 / std::sqrt(effective);
  const double mean = x.mean(), sd = std::sqrt((x.array() - mean).square().sum() / static_cast<double>(n - 1));
  std::cout << "[measured] mean " << mean << ", sd " << sd << ", effective draws " << r.effectiveDraws << "\n";
  EXPECT_NEAR(mean, 0.3, 4.0 * se);
  EXPECT_NEAR(sd, 1.2, 4.0 * se / std::sqrt(2.0));  // the standard error of a normal sd: sd / sqrt(2 n)
  // q's own moments (0 and 1) are far outside those bounds: the test tells them apart.
  EXPECT_GT(0.3 - 0.0, 8.0 * se);
  EXPECT_GT(1.2 - 1.0, 8.0 * se / std::sqrt(2.0));
}

TEST(ImportanceResampling, KeepsQsDrawsWhenKhatSaysTheWeightsAreUnreliableOrWhenAskedTo) {
  // p four times wider than q: the ratios' Pareto shape is 1 - 1/16 (k-hat above 0.7).
  const Candidates wide = narrowCandidates(4000, 4.0);
  const ImportanceResampling r = importanceResample(wide.logP, wide.logG, true, 0.7, 1000, 5);
  EXPECT_GT(r.khat, 0.7);
  EXPECT_FALSE(r.applied);
  EXPECT_TRUE(r.rows.empty());

  const Candidates narrow = narrowCandidates(4000, 1.2);
  const ImportanceResampling off = importanceResample(narrow.logP, narrow.logG, false, 0.7, 1000, 5);
  EXPECT_FALSE(off.applied);
  EXPECT_LT(off.khat, 0.7);
  EXPECT_GT(off.effectiveDraws, 1000.0);
}

}  // namespace
}  // namespace pvi
