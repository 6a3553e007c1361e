// Property 3.1 (and 3.3): synchronous PVI whose clients take ONE local step reproduces global
// VI's iterates, whatever the partition, given the same random draws.
//
// Set-up: Bayesian logistic regression (non-conjugate, so the Monte Carlo estimator is really
// exercised), prior N(0, I) held exactly, 120 rows split into 1, 3 and 10 clients. Synchronous
// PVI with damping 1 and common random numbers: every client of round r draws the same eps as
// global VI's iteration r (roundSeed). The clients use GradientStepOptimiser (plain gradient
// ascent on eta through the Fisher product) or one damped fixed-point step (eq. 4); global VI
// (GlobalVI.hpp) is a separate routine computing its gradient by the chain rule through (m, S).
//
// Tolerance 1e-10 relative (max entry difference over the largest entry of the global iterate)
// at every iteration: the two computations are equal in exact arithmetic and differ only by
// reassociation (per-client sums vs per-draw sums, the running eta_q vs eta_0 + sum eta_k,
// Fisher product vs chain rule), each ~1e-16 relative per operation, compounded over 25
// iterations. A wrong gradient, a missing cavity term or mismatched draws would be O(1e-2) or
// more: the negative control (several local steps, where the Property does not hold) differs
// by more than 1e-4.
#include <gtest/gtest.h>

#include <iostream>
#include <tuple>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::support;
using namespace pvi::federation;
using namespace pvi::algorithms;

constexpr double kReassociation = 1e-10;
constexpr std::size_t kIterations = 25;
constexpr std::uint64_t kSeed = 99;

template <class Family>
std::vector<typename Family::Natural> runSynchronousOneStep(const FactorModel& model,
                                                            std::shared_ptr<const LocalOptimiser<Family>> optimiser) {
  auto federation = makeFederation<Family>(model, optimiser);
  std::vector<typename Family::Natural> iterates{federation.server().posterior()};
  federation.server().setObserver([&](const Server<Family>& s) { iterates.push_back(s.posterior()); });
  SynchronousOptions o;
  o.rounds = kIterations;
  o.damping = 1.0;
  o.commonRandomNumbers = true;
  o.seed = kSeed;
  runSynchronous(federation, o);
  EXPECT_EQ(federation.server().counters().rejected, 0u);
  EXPECT_EQ(federation.server().counters().halvings, 0u);
  return iterates;
}

template <class Natural>
double worstRelativeGap(const std::vector<Natural>& pvi, const std::vector<Natural>& global) {
  EXPECT_EQ(pvi.size(), global.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < std::min(pvi.size(), global.size()); ++i)
    worst = std::max(worst, maxAbsDifference(pvi[i], global[i]) / maxAbs(global[i]));
  return worst;
}

class GlobalVIEquivalence : public ::testing::TestWithParam<int> {};

template <class Family>
void checkGradientStep(int clients, double lr) {
  LogisticModel model(120, 3, clients, 7);
  GradientStepOptions g;
  g.learningRate = lr;
  g.steps = 1;
  g.samples = 8;
  const auto pvi = runSynchronousOneStep<Family>(model, std::make_shared<GradientStepOptimiser<Family>>(g));
  GlobalVIOptions o;
  o.method = GlobalVIMethod::Gradient;
  o.stepSize = lr;
  o.iterations = kIterations;
  o.samples = 8;
  o.seed = kSeed;
  const GlobalVIResult<Family> global = runGlobalVI<Family>(model, {}, o);
  ASSERT_FALSE(global.stoppedInvalid);
  ASSERT_EQ(global.halvings, 0u);
  const double gap = worstRelativeGap(pvi, global.iterates);
  const double moved = maxAbsDifference(global.iterates.front(), global.iterates.back()) / maxAbs(global.iterates.back());
  std::cout << "[measured] Property 3.1 " << Family::name << " M=" << clients << " gap " << gap << " (q moved "
            << moved << ")\n";
  EXPECT_LT(gap, kReassociation);
  EXPECT_GT(moved, 0.1);  // the iterates really move
}

TEST_P(GlobalVIEquivalence, GradientStepFullCovariance) { checkGradientStep<FullGaussian>(GetParam(), 2e-3); }
TEST_P(GlobalVIEquivalence, GradientStepMeanField) { checkGradientStep<MeanFieldGaussian>(GetParam(), 2e-3); }

template <class Family>
void checkFixedPointStep(int clients) {
  LogisticModel model(120, 3, clients, 8);
  NaturalGradientOptions n;
  n.stepSize = 0.2;
  n.maxSteps = 1;
  n.samples = 64;
  n.useExactExpectations = false;
  const auto pvi = runSynchronousOneStep<Family>(model, std::make_shared<NaturalGradientOptimiser<Family>>(n));
  GlobalVIOptions o;
  o.method = GlobalVIMethod::NaturalGradient;
  o.stepSize = 0.2;
  o.iterations = kIterations;
  o.samples = 64;
  o.seed = kSeed;
  const GlobalVIResult<Family> global = runGlobalVI<Family>(model, {}, o);
  ASSERT_EQ(global.halvings, 0u);
  const double gap = worstRelativeGap(pvi, global.iterates);
  std::cout << "[measured] Property 3.3 " << Family::name << " M=" << clients << " gap " << gap << "\n";
  EXPECT_LT(gap, kReassociation);
}

TEST_P(GlobalVIEquivalence, FixedPointStepFullCovariance) { checkFixedPointStep<FullGaussian>(GetParam()); }
TEST_P(GlobalVIEquivalence, FixedPointStepMeanField) { checkFixedPointStep<MeanFieldGaussian>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Partitions, GlobalVIEquivalence, ::testing::Values(1, 3, 10),
                         [](const auto& info) { return std::to_string(info.param) + "clients"; });

TEST(GlobalVIEquivalence, SeveralLocalStepsDoNotReproduceGlobalVI) {
  // Negative control: the equivalence is specific to one local step.
  LogisticModel model(120, 3, 3, 7);
  GradientStepOptions g;
  g.learningRate = 2e-3;
  g.steps = 3;
  g.samples = 8;
  const auto pvi = runSynchronousOneStep<FullGaussian>(model, std::make_shared<GradientStepOptimiser<FullGaussian>>(g));
  GlobalVIOptions o;
  o.stepSize = 2e-3;
  o.iterations = kIterations;
  o.samples = 8;
  o.seed = kSeed;
  const auto global = runGlobalVI<FullGaussian>(model, {}, o);
  EXPECT_GT(worstRelativeGap(pvi, global.iterates), 1e-4);
}

}  // namespace
}  // namespace pvi::test
