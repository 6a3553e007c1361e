// Property 5: an update that would make q invalid is never applied.
//
// Misbehaving clients (test optimisers) return: NaN entries; a precision change so large that q
// stays invalid after every permitted halving; a change that is invalid at full size but valid
// at half; a failed local optimisation; and a likelihood that returns NaN. They run alongside
// well-behaved clients under every schedule. After every server update q must be a valid
// distribution and the invariant must hold; the bad updates must be counted (rejected, halvings)
// and logged, and a rejected client's factor must stay unchanged on both sides.
#include <gtest/gtest.h>

#include <limits>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::estimation;
using namespace pvi::federation;
using namespace pvi::algorithms;

enum class Misbehaviour { NaN, HopelesslyInvalid, InvalidAtFullSize, Fails };

class BadOptimiser final : public LocalOptimiser<FullGaussian> {
 public:
  explicit BadOptimiser(Misbehaviour m) : m_(m) {}
  LocalSolution<FullGaussian> optimise(const LocalProblem<FullGaussian>& p) const override {
    LocalSolution<FullGaussian> s;
    const Eigen::Index d = p.posterior.dim();
    const Eigen::MatrixXd precision = -2.0 * p.posterior.eta2;
    s.change = FullNatural::flat(d);
    s.ok = true;
    switch (m_) {
      case Misbehaviour::NaN: s.change.eta1(0) = std::numeric_limits<double>::quiet_NaN(); break;
      case Misbehaviour::HopelesslyInvalid: s.change.eta2 = 1e6 * precision; break;  // 1e6 / 2^10 still >> 1/2
      case Misbehaviour::InvalidAtFullSize: s.change.eta2 = 0.75 * precision; break;  // invalid; half of it is fine
      case Misbehaviour::Fails:
        s.ok = false;
        s.reason = "deliberate failure";
        break;
    }
    return s;
  }
  std::string name() const override { return "bad"; }

 private:
  Misbehaviour m_;
};

class NaNLikelihood final : public LocalLikelihood {
 public:
  std::size_t globalDim() const override { return 3; }
  double evaluate(const double*, const double*, double* g, double*) const override {
    if (g) g[0] = g[1] = g[2] = 0.0;
    return std::numeric_limits<double>::quiet_NaN();
  }
};

// Three good clients (exact natural gradient on the linear model) and one bad one (factor 4).
Federation<FullGaussian> withBadClient(const LinearGaussianModel& model, std::shared_ptr<LocalOptimiser<FullGaussian>> bad,
                                       std::shared_ptr<LocalLikelihood> badLikelihood = nullptr) {
  NaturalGradientOptions ng;
  ng.stepSize = 1.0;
  ng.maxSteps = 2;
  auto good = std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng);
  std::vector<std::unique_ptr<Client<FullGaussian>>> clients;
  for (std::size_t j = 0; j < 3; ++j)
    clients.push_back(std::make_unique<Client<FullGaussian>>(
        j + 1, std::make_shared<PartitionLikelihood>(model, j, std::vector<double>{}, &model), good,
        FullNatural::flat(3)));
  std::shared_ptr<const LocalLikelihood> lik = badLikelihood;
  if (!lik) lik = std::make_shared<PartitionLikelihood>(model, 3, std::vector<double>{}, &model);
  clients.push_back(std::make_unique<Client<FullGaussian>>(4, lik, bad ? bad : good, FullNatural::flat(3)));
  Server<FullGaussian> server(*exactPriorFactor<FullGaussian>(model), 4);
  return Federation<FullGaussian>(std::move(server), std::move(clients));
}

class InvalidUpdates : public ::testing::TestWithParam<std::tuple<Schedule, Misbehaviour>> {};

TEST_P(InvalidUpdates, AreNeverApplied) {
  const auto [schedule, misbehaviour] = GetParam();
  LinearGaussianModel model(40, 3, 4, 77);
  auto federation = withBadClient(model, std::make_shared<BadOptimiser>(misbehaviour));
  InvariantWatch<FullGaussian> watch;
  watch.attach(federation.server());
  runSchedule(federation, schedule, 5, 1.0);  // rho = 1: the bad changes arrive at full size
  const auto& c = federation.server().counters();
  EXPECT_TRUE(watch.alwaysValid);
  EXPECT_LE(watch.worst, 1e-12);
  EXPECT_TRUE(isValidDistribution(federation.server().posterior()));
  EXPECT_EQ(federation.clientRecordMismatch(), 0.0);
  EXPECT_FALSE(federation.server().trace().events().empty());
  const bool rejected = misbehaviour != Misbehaviour::InvalidAtFullSize;
  std::size_t badRejections = 0, goodRejections = 0;
  for (const std::string& e : federation.server().trace().events()) {
    if (e.rfind("rejected: factor 4", 0) == 0) ++badRejections;
    else if (e.rfind("rejected:", 0) == 0) ++goodRejections;
  }
  EXPECT_EQ(goodRejections, 0u);
  EXPECT_EQ(c.rejected, badRejections);
  EXPECT_EQ(c.accepted + c.rejected, c.messagesUp) << "every message accepted or rejected (nothing dropped)";
  if (rejected) {
    // Every bad update is rejected: one per round for the deterministic schedules (the threaded
    // asynchronous one lets clients overtake each other, so only "at least one" is certain).
    if (schedule == Schedule::AsyncThreads) {
      EXPECT_GE(c.rejected, 1u);
    } else {
      EXPECT_EQ(c.rejected, 5u) << "one rejection per bad update";
    }
    EXPECT_EQ(maxAbs(federation.client(4).factor()), 0.0) << "a rejected client's factor stays flat";
    EXPECT_EQ(maxAbs(federation.server().factor(4)), 0.0);
  } else {
    EXPECT_EQ(c.rejected, 0u);
    // Alone on q the bad change needs a halving; summed with good clients' changes (synchronous)
    // or applied to a q that has moved on (asynchronous) it sometimes does not.
    // With real threads whether it arrives before q has gained enough precision is timing-dependent,
    // so there only validity and the absence of rejections are checked.
    const bool alone = schedule == Schedule::SequentialFixed || schedule == Schedule::SequentialRandom;
    if (schedule != Schedule::AsyncThreads) {
      EXPECT_GE(c.halvings, alone ? 5u : 1u);
    }
  }
}

std::string misbehaviourCaseName(const ::testing::TestParamInfo<std::tuple<Schedule, Misbehaviour>>& info) {
  static const char* const names[] = {"NaN", "HopelesslyInvalid", "InvalidAtFullSize", "Fails"};
  return scheduleName(std::get<0>(info.param)) + "_" + names[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(AllSchedules, InvalidUpdates,
                         ::testing::Combine(::testing::ValuesIn(kAllSchedules),
                                            ::testing::Values(Misbehaviour::NaN, Misbehaviour::HopelesslyInvalid,
                                                              Misbehaviour::InvalidAtFullSize, Misbehaviour::Fails)),
                         misbehaviourCaseName);

TEST(InvalidUpdates, NonFiniteLikelihoodFailsTheUpdate) {
  LinearGaussianModel model(40, 3, 4, 78);
  auto federation = withBadClient(model, nullptr, std::make_shared<NaNLikelihood>());
  runSchedule(federation, Schedule::SequentialFixed, 3, 1.0);
  EXPECT_EQ(federation.server().counters().rejected, 3u);
  EXPECT_TRUE(isValidDistribution(federation.server().posterior()));
  bool mentioned = false;
  for (const std::string& e : federation.server().trace().events()) mentioned |= e.find("not finite") != std::string::npos;
  EXPECT_TRUE(mentioned);
}

TEST(InvalidUpdates, ServerLeavesStateUntouchedOnRejection) {
  LinearGaussianModel model(40, 3, 1, 79);
  Server<FullGaussian> server(*exactPriorFactor<FullGaussian>(model), 1);
  const FullNatural before = server.posterior();
  ClientUpdate<FullGaussian> u;
  u.factorIndex = 1;
  u.ok = true;
  u.delta = FullNatural{Eigen::VectorXd::Zero(3), 1e6 * Eigen::MatrixXd::Identity(3, 3)};
  const ApplyOutcome o = server.apply(u);
  EXPECT_FALSE(o.applied);
  EXPECT_EQ(o.scale, 0.0);
  EXPECT_EQ(maxAbsDifference(server.posterior(), before), 0.0);
  EXPECT_EQ(maxAbs(server.factor(1)), 0.0);
  EXPECT_EQ(server.counters().rejected, 1u);
  EXPECT_EQ(server.counters().serverUpdates, 0u);
  // An asymmetric eta2 is malformed, not halvable.
  u.delta.eta2 = Eigen::MatrixXd::Zero(3, 3);
  u.delta.eta2(0, 1) = 1e-3;
  EXPECT_FALSE(server.apply(u).applied);
  EXPECT_EQ(server.counters().rejected, 2u);
}

}  // namespace
}  // namespace pvi::test
