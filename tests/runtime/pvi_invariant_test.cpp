// Property 1: after every update under every schedule, eta_q == eta_0 + sum_k eta_k to 1e-12
// relative (to the largest entry involved), and every client's eta_k equals the server's record
// bitwise. Here with Monte Carlo deltas (natural gradient with the Stein estimator on logistic
// regression: noisy, non-conjugate updates, some halved by the server), both families, and a
// refined prior whose factor 0 moves too. The error is pure rounding of the running sum
// (~ number of updates x 1e-16), so 1e-12 leaves three orders of magnitude for a few hundred
// updates while catching any lost or double-counted delta (an O(1) relative error).
// Also the communication bookkeeping of each schedule.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::support;
using namespace pvi::federation;
using namespace pvi::algorithms;

template <class Family>
void checkInvariant(Schedule schedule, bool refinePrior) {
  LogisticModel model(100, 3, 5, 21);
  NaturalGradientOptions ng;
  ng.stepSize = 0.5;
  ng.maxSteps = 5;
  ng.samples = 16;
  FederationOptions<Family> fo;
  fo.refinePrior = refinePrior;
  auto federation = makeFederation<Family>(model, std::make_shared<NaturalGradientOptimiser<Family>>(ng), fo);
  InvariantWatch<Family> watch;
  watch.attach(federation.server());
  runSchedule(federation, schedule, 8, 0.5);
  std::cout << "[measured] invariant " << Family::name << " " << scheduleName(schedule)
            << (refinePrior ? " refined prior" : "") << ": worst " << watch.worst << " over " << watch.updates
            << " updates\n";
  EXPECT_GT(watch.updates, 5u);
  EXPECT_LE(watch.worst, 1e-12);
  EXPECT_TRUE(watch.alwaysValid);
  EXPECT_EQ(federation.clientRecordMismatch(), 0.0);
  if (refinePrior) {
    EXPECT_GT(maxAbsDifference(federation.server().factor(0), *exactPriorFactor<Family>(model)), 0.0);
  }
}

class Invariant : public ::testing::TestWithParam<std::tuple<Schedule, bool>> {};
TEST_P(Invariant, FullCovariance) { checkInvariant<FullGaussian>(std::get<0>(GetParam()), std::get<1>(GetParam())); }
TEST_P(Invariant, MeanField) { checkInvariant<MeanFieldGaussian>(std::get<0>(GetParam()), std::get<1>(GetParam())); }
INSTANTIATE_TEST_SUITE_P(AllSchedules, Invariant,
                         ::testing::Combine(::testing::ValuesIn(kAllSchedules), ::testing::Bool()),
                         [](const auto& info) {
                           return scheduleName(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_RefinedPrior" : "_ExactPrior");
                         });

TEST(Communication, SynchronousCountsAndTrace) {
  LinearGaussianModel model(40, 3, 4, 5);
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  auto federation = makeFederation<FullGaussian>(
      model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(NaturalGradientOptions{}), fo);
  SynchronousOptions o;
  o.rounds = 3;
  o.damping = 0.5;
  o.freeEnergy.every = 1;
  runSynchronous(federation, o);
  const CommunicationCounters& c = federation.server().counters();
  const std::size_t payload = 8 * (3 + 6);  // D + D (D + 1) / 2 doubles
  EXPECT_EQ(c.rounds, 3u);
  EXPECT_EQ(c.serverUpdates, 3u);
  EXPECT_EQ(c.messagesDown, 12u);
  EXPECT_EQ(c.messagesUp, 12u);
  EXPECT_EQ(c.bytesDown, 12 * payload);
  EXPECT_EQ(c.bytesUp, 12 * payload);
  EXPECT_EQ(c.accepted, 12u);
  const auto& records = federation.server().trace().records();
  ASSERT_EQ(records.size(), 3u);
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(records[r].round, r + 1);
    EXPECT_TRUE(std::isfinite(records[r].freeEnergy));
    EXPECT_GT(records[r].maxChange, 0.0);
  }
  // Damped exact updates increase the ELBO round by round towards log p(y).
  EXPECT_LT(records[0].freeEnergy, records[1].freeEnergy);
  EXPECT_LT(records[1].freeEnergy, records[2].freeEnergy);
  EXPECT_LT(records[2].freeEnergy, model.logEvidence());
  std::ostringstream csv;
  federation.server().trace().writeCsv(csv);
  const std::string text = csv.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
}

TEST(Communication, SequentialAndMeanFieldPayload) {
  LinearGaussianModel model(40, 3, 4, 6);
  model.setDiagonalPrior();
  FederationOptions<MeanFieldGaussian> fo;
  fo.exact = &model;
  auto federation = makeFederation<MeanFieldGaussian>(
      model, std::make_shared<NaturalGradientOptimiser<MeanFieldGaussian>>(NaturalGradientOptions{}), fo);
  SequentialOptions o;
  o.passes = 2;
  runSequential(federation, o);
  const CommunicationCounters& c = federation.server().counters();
  EXPECT_EQ(c.rounds, 2u);
  EXPECT_EQ(c.serverUpdates, 8u);
  EXPECT_EQ(c.messagesUp, 8u);
  EXPECT_EQ(c.bytesUp, 8u * 8u * 6u);  // 2 D doubles
}

TEST(Communication, SequentialStopsAtTolerance) {
  LinearGaussianModel model(40, 3, 4, 7);
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  NaturalGradientOptions ng;
  ng.stepSize = 1.0;
  auto federation =
      makeFederation<FullGaussian>(model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng), fo);
  SequentialOptions o;
  o.passes = 50;
  o.tolerance = 1e-12;
  const RunSummary s = runSequential(federation, o);
  EXPECT_TRUE(s.converged);
  EXPECT_LE(s.rounds, 3u);  // exact factors: one pass, then a pass of (near) zero changes
}

}  // namespace
}  // namespace pvi::test
