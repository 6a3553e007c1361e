// The early-stopping rule of variational fits (runtime/fit/StoppingRule.hpp): an ELBO plateau
// stops a fit only when q has also stopped moving.
#include <gtest/gtest.h>

#include "runtime/fit/StoppingRule.hpp"

namespace pvi {
namespace {

support::TraceRecord round(double elbo, double se = 0.3) {
  support::TraceRecord r;
  r.freeEnergy = elbo;
  r.freeEnergyStandardError = se;
  return r;
}

const Eigen::VectorXd kSd = Eigen::Vector2d(0.06, 2.0);

TEST(StoppingRule, APlateauWithQAtRestStopsAfterPatienceRounds) {
  StoppingRule rule(5);
  EXPECT_FALSE(rule.update(round(-300.0), Eigen::Vector2d(0.5, 1.0), kSd));
  for (int k = 1; k <= 4; ++k)  // gains below 2 se, q jittering by 0.02 sd
    EXPECT_FALSE(rule.update(round(-300.0 + 0.1 * k), Eigen::Vector2d(0.5 + 0.0012 * (k % 2), 1.0), kSd)) << k;
  EXPECT_TRUE(rule.update(round(-299.6), Eigen::Vector2d(0.5, 1.0), kSd));
  EXPECT_LT(rule.drift(), 0.25);
}

TEST(StoppingRule, AMeanStillDriftingKeepsTheFitGoingThroughAPlateau) {
  // The Poisson random-effects example: the intercept drifts by 0.1 of its sd per round while the
  // ELBO gains 0.02 per round against a standard error of 0.3.
  StoppingRule rule(5);
  for (int k = 0; k < 30; ++k)
    EXPECT_FALSE(rule.update(round(-282.0 + 0.02 * k), Eigen::Vector2d(0.03 + 0.006 * k, 1.0), kSd)) << k;
  EXPECT_NEAR(rule.drift(), 0.5, 1e-9);  // 5 rounds x 0.006 / 0.06
  // The same drift with a patience of 3 (0.3 sd over the window, above its 0.15): still going.
  StoppingRule shorter(3);
  for (int k = 0; k < 30; ++k)
    EXPECT_FALSE(shorter.update(round(-282.0 + 0.02 * k), Eigen::Vector2d(0.03 + 0.006 * k, 1.0), kSd)) << k;
  EXPECT_NEAR(shorter.drift(), 0.3, 1e-9);
  // Half that drift per round (0.05 sd) over 3 rounds is at the threshold, not above it: it stops.
  StoppingRule slow(3);
  bool stopped = false;
  for (int k = 0; k < 30 && !stopped; ++k)
    stopped = slow.update(round(-282.0 + 0.02 * k), Eigen::Vector2d(0.03 + 0.0029 * k, 1.0), kSd);
  EXPECT_TRUE(stopped);
}

TEST(StoppingRule, ANewBestResetsThePlateauAndPatienceZeroNeverStops) {
  StoppingRule rule(2);
  const Eigen::VectorXd m = Eigen::Vector2d(0.0, 0.0);
  EXPECT_FALSE(rule.update(round(-10.0), m, kSd));
  EXPECT_FALSE(rule.update(round(-10.0), m, kSd));
  EXPECT_FALSE(rule.update(round(-5.0), m, kSd));  // a gain of 5 > 2 se
  EXPECT_FALSE(rule.update(round(-5.0), m, kSd));
  EXPECT_TRUE(rule.update(round(-5.0), m, kSd));
  StoppingRule never(0);
  for (int k = 0; k < 20; ++k) EXPECT_FALSE(never.update(round(-1.0), m, kSd));
}

}  // namespace
}  // namespace pvi
