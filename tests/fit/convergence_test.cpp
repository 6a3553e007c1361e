// What "converged" means for a variational fit, and when its result is unusable
// (runtime/fit/Convergence.hpp), on constructed traces.
#include "runtime/fit/Convergence.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace pvi {
namespace {

// A fit of `elbos.size()` rounds with these ELBO estimates (standard error `se`), `rejected`
// cumulative rejections per round, stopped for `stop`.
FitResult fitWith(const std::vector<double>& elbos, double se, const std::vector<std::size_t>& rejected,
                  StopReason stop) {
  FitResult f;
  GaussianPosterior g;
  g.mean = Eigen::VectorXd::Zero(2);
  g.covariance = Eigen::MatrixXd::Identity(2, 2);
  f.posterior = g;
  for (std::size_t r = 0; r < elbos.size(); ++r) {
    support::TraceRecord t;
    t.round = r + 1;
    t.freeEnergy = elbos[r];
    t.freeEnergyStandardError = se;
    t.counters.rejected = rejected[r];
    t.counters.accepted = 2 * (r + 1);
    f.trace.push_back(t);
  }
  f.elbo = {elbos.back(), se};
  f.counters = f.trace.back().counters;
  f.stop = stop;
  f.rounds = elbos.size();
  return f;
}

TEST(Convergence, AFitThatSettledHasConverged) {
  const ConvergenceVerdict v =
      judgeConvergence(fitWith({-900, -700, -650, -649.5, -650.2}, 0.8, {0, 0, 0, 0, 0}, StopReason::ElboPlateau), 30);
  EXPECT_TRUE(v.converged);
  EXPECT_TRUE(v.usable);
  EXPECT_EQ(v.summary, "converged: the ELBO stopped rising");
}

TEST(Convergence, TheRoundLimitIsNotConvergence) {
  const ConvergenceVerdict v = judgeConvergence(fitWith({-900, -700, -650}, 0.8, {0, 0, 0}, StopReason::RoundLimit), 3);
  EXPECT_FALSE(v.converged);
  EXPECT_TRUE(v.usable);
  EXPECT_EQ(v.summary, "not converged: the round limit (3) was reached");
}

TEST(Convergence, ARejectedUpdateInTheLastRoundIsNotConvergence) {
  const ConvergenceVerdict v =
      judgeConvergence(fitWith({-900, -700, -650, -650}, 0.8, {0, 1, 1, 3}, StopReason::Tolerance), 30);
  EXPECT_FALSE(v.converged);
  EXPECT_EQ(v.summary, "not converged: 2 update(s) were rejected in the last round");
}

TEST(Convergence, AnElboFarBelowItsBestIsNotConvergence) {
  // The best is -650 +- 0.8: -660 is 12.5 standard errors below it.
  const ConvergenceVerdict v =
      judgeConvergence(fitWith({-900, -650, -655, -660}, 0.8, {0, 0, 0, 0}, StopReason::ElboPlateau), 30);
  EXPECT_FALSE(v.converged);
  EXPECT_NE(v.summary.find("below its best (-650)"), std::string::npos) << v.summary;
  // Within 4 standard errors is noise, not a fall.
  EXPECT_TRUE(judgeConvergence(fitWith({-900, -650, -652}, 0.8, {0, 0, 0}, StopReason::ElboPlateau), 30).converged);
}

TEST(Convergence, EveryUpdateRejectedIsUnusable) {
  FitResult f = fitWith({-1.6e186}, 0.0, {2}, StopReason::Tolerance);
  f.counters.accepted = 0;
  const ConvergenceVerdict v = judgeConvergence(f, 30);
  EXPECT_FALSE(v.usable);
  EXPECT_FALSE(v.converged);
  EXPECT_EQ(v.summary, "the fit failed: every one of the 2 updates was rejected: the approximation is still the prior");
}

TEST(Convergence, ADivergedOrNonFiniteFitIsUnusable) {
  const ConvergenceVerdict diverged =
      judgeConvergence(fitWith({-3.5e201, -3.5e201}, 1.0, {0, 0}, StopReason::Tolerance), 30);
  EXPECT_FALSE(diverged.usable);
  EXPECT_NE(diverged.summary.find("the fit diverged (ELBO -3.5e+201)"), std::string::npos) << diverged.summary;
  FitResult nan = fitWith({-700, -650}, 1.0, {0, 0}, StopReason::Tolerance);
  GaussianPosterior g = nan.posterior.gaussian();
  g.mean[1] = std::numeric_limits<double>::quiet_NaN();
  nan.posterior = g;
  const ConvergenceVerdict v = judgeConvergence(nan, 30);
  EXPECT_FALSE(v.usable);
  EXPECT_EQ(v.summary, "the fit failed: the approximation is not finite");
}

}  // namespace
}  // namespace pvi
