// Pareto k-hat against the R package loo 2.5.1 (Debian's r-cran-loo), on deterministic log ratios:
// exact Pareto quantiles with shape k0, r_i = (1 - u_i)^-k0 at u_i = (i - 0.5) / S, and bounded
// ratios 3 sin(i). Made with
//   Rscript -e 'library(loo); S <- 1000; u <- (seq_len(S) - 0.5) / S;
//               sprintf("%.17g", psis(-0.8 * log1p(-u), r_eff = 1)$diagnostics$pareto_k)'
// and the same for the other shapes, S = 4000, 3 * sin(seq_len(S)), and r_eff = 0.5. The smoothed
// weights likewise: lw <- as.vector(weights(psis(lr, r_eff = 1), log = TRUE, normalize = FALSE)),
// printed as its last five entries and matrixStats::logSumExp(lw).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/diagnostics/ParetoKhat.hpp"

namespace pvi::diagnostics {
namespace {

Eigen::VectorXd paretoLogRatios(int s, double k0) {
  Eigen::VectorXd lw(s);
  for (int i = 0; i < s; ++i) lw[i] = -k0 * std::log1p(-(i + 0.5) / s);
  return lw;
}

Eigen::VectorXd sineLogRatios(int s) {
  Eigen::VectorXd lw(s);
  for (int i = 0; i < s; ++i) lw[i] = 3.0 * std::sin(i + 1.0);
  return lw;
}

TEST(ParetoKhat, MatchesLoo) {
  const struct {
    int s;
    double k0;
    double expected;
  } cases[] = {{1000, 0.3, 0.32356064382606831}, {1000, 0.8, 0.75745983271601558}, {1000, 1.2, 1.1046739292502388},
               {4000, 0.3, 0.31231166382304121}, {4000, 0.8, 0.77732384908948937}, {4000, 1.2, 1.149271584063374}};
  for (const auto& c : cases)
    EXPECT_NEAR(paretoKhat(paretoLogRatios(c.s, c.k0)), c.expected, 1e-10 * std::abs(c.expected))
        << "S " << c.s << ", k0 " << c.k0;
  EXPECT_NEAR(paretoKhat(sineLogRatios(1000)), -1.5566771373932435, 1e-10);
  EXPECT_NEAR(paretoKhat(sineLogRatios(4000)), -1.6475711274339504, 1e-10);
  EXPECT_NEAR(paretoKhat(paretoLogRatios(1000, 0.8), 0.5), 0.76903344224174308, 1e-10);
}

TEST(ParetoSmoothedWeights, MatchLoo) {
  const struct {
    Eigen::VectorXd logRatios;
    double khat;
    double last[5];
    double logSum;
  } cases[] = {
      {paretoLogRatios(1000, 0.8),
       0.75745983271601558,
       {4.2548653216954779, 4.4464425765079225, 4.7026105392588935, 5.0909795350257783, 5.9248521679291191},
       8.3047065577706878},
      {paretoLogRatios(4000, 0.3),
       0.31231166382304121,
       {2.0538041711574659, 2.1313091540149123, 2.235190588633003, 2.3931244611908111, 2.6961590461984914},
       8.6506350426649643},
      {sineLogRatios(1000),
       -1.5566771373932435,
       {-0.34462394593681855, -2.6939024414938535, -2.5664194559090623, -0.079382258211192269, 2.4806386215960075},
       8.4946523007054644},
  };
  for (const auto& c : cases) {
    const SmoothedWeights w = paretoSmoothedWeights(c.logRatios);
    EXPECT_NEAR(w.khat, c.khat, 1e-10 * std::abs(c.khat));
    const Eigen::Index s = w.logWeights.size();
    for (int i = 0; i < 5; ++i) EXPECT_NEAR(w.logWeights[s - 5 + i], c.last[i], 1e-10) << "entry " << s - 4 + i;
    const double max = w.logWeights.maxCoeff();
    EXPECT_NEAR(max + std::log((w.logWeights.array() - max).exp().sum()), c.logSum, 1e-10);
  }
}

TEST(ParetoSmoothedWeights, NeverExceedTheLargestRatioAndKeepTheBody) {
  const Eigen::VectorXd lr = paretoLogRatios(1000, 1.2);
  const SmoothedWeights w = paretoSmoothedWeights(lr);
  EXPECT_LE(w.logWeights.maxCoeff(), lr.maxCoeff());
  EXPECT_EQ(w.logWeights.head(900), lr.head(900));  // the tail is the largest 95 (3 sqrt(1000))
  EXPECT_LT(w.logWeights[999], lr[999]);
}

TEST(ParetoKhat, ShiftAndOrderDoNotMatter) {
  Eigen::VectorXd lw = paretoLogRatios(1000, 0.8);
  const double k = paretoKhat(lw);
  EXPECT_NEAR(paretoKhat((lw.array() + 1234.5).matrix()), k, 1e-9);
  EXPECT_NEAR(paretoKhat(lw.reverse()), k, 1e-12);
}

TEST(ParetoKhat, DegenerateInputs) {
  EXPECT_EQ(paretoKhat(Eigen::VectorXd::Constant(1000, 2.0)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(paretoKhat(paretoLogRatios(20, 0.5)), std::numeric_limits<double>::infinity());  // tail of 4
  Eigen::VectorXd lw = paretoLogRatios(1000, 0.5);
  lw[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(paretoKhat(lw)));
  lw[3] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(paretoKhat(lw), std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace pvi::diagnostics
