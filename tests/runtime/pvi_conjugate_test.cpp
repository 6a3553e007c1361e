// Properties 1 and 2 on the conjugate linear-Gaussian regression (PviTestModels.hpp), whose
// posterior is known in closed form:
//
// Property 2 (exact path). With the natural-gradient fixed point and the model's closed-form
// expectations (ExactExpectationsProvider: for a Gaussian likelihood E[hess] is exact and
// constant, so d/dmu E[f] is the likelihood's exact Gaussian factor), every schedule reaches the
// exact posterior for 1, 3 and 10 clients: relative errors of mean and covariance <= 1e-8. The
// only error sources are the geometric convergence of damped PVI (rho = 1/2 leaves 2^-r after r
// updates of a client: r >= 40 here, so < 1e-12) and rounding (~1e-15), so 1e-8 has ample room
// without being loose enough to hide a wrong factor (any algebra slip is O(1)).
// The mean-field family reaches the mean-field VI optimum (exact means, variances 1 / P_ii).
//
// Property 1 is watched throughout: after every server update under every schedule,
// max |eta_q - (eta_0 + sum_k eta_k)| <= 1e-12 relative to the largest entry (rounding of the
// running sum is ~ updates * 1e-16), and each client's eta_k equals the server's record bitwise.
#include <gtest/gtest.h>

#include <iostream>
#include <tuple>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::estimation;
using namespace pvi::federation;
using namespace pvi::algorithms;

constexpr double kExactTolerance = 1e-8;
constexpr double kInvariantTolerance = 1e-12;

class ConjugateExact : public ::testing::TestWithParam<std::tuple<Schedule, int>> {};

TEST_P(ConjugateExact, FullCovarianceReachesExactPosterior) {
  const auto [schedule, clients] = GetParam();
  LinearGaussianModel model(60, 3, clients, 2024);
  NaturalGradientOptions ng;
  ng.stepSize = 1.0;
  ng.maxSteps = 3;
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  auto federation =
      makeFederation<FullGaussian>(model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng), fo);
  InvariantWatch<FullGaussian> watch;
  watch.attach(federation.server());
  const bool sequential = schedule == Schedule::SequentialFixed || schedule == Schedule::SequentialRandom;
  runSchedule(federation, schedule, sequential ? 3 : 60, sequential ? 1.0 : 0.5);

  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.posteriorCovariance());
  std::cout << "[measured] full " << scheduleName(schedule) << " M=" << clients << " mean " << err.mean << " cov "
            << err.cov << " invariant " << watch.worst << " updates " << watch.updates << "\n";
  EXPECT_LT(err.mean, kExactTolerance);
  EXPECT_LT(err.cov, kExactTolerance);
  EXPECT_GT(watch.updates, 0u);
  EXPECT_LE(watch.worst, kInvariantTolerance);
  EXPECT_TRUE(watch.alwaysValid);
  EXPECT_EQ(federation.clientRecordMismatch(), 0.0);
  EXPECT_EQ(federation.server().counters().rejected, 0u);
}

TEST_P(ConjugateExact, MeanFieldReachesMeanFieldOptimum) {
  const auto [schedule, clients] = GetParam();
  LinearGaussianModel model(60, 3, clients, 2025);
  model.setDiagonalPrior();
  NaturalGradientOptions ng;
  ng.stepSize = 0.5;
  ng.maxSteps = 200;
  ng.tolerance = 1e-14;
  FederationOptions<MeanFieldGaussian> fo;
  fo.exact = &model;
  auto federation = makeFederation<MeanFieldGaussian>(
      model, std::make_shared<NaturalGradientOptimiser<MeanFieldGaussian>>(ng), fo);
  ASSERT_FALSE(federation.priorRefined());
  InvariantWatch<MeanFieldGaussian> watch;
  watch.attach(federation.server());
  const bool sequential = schedule == Schedule::SequentialFixed || schedule == Schedule::SequentialRandom;
  runSchedule(federation, schedule, sequential ? 60 : 120, sequential ? 1.0 : 0.5);

  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.meanFieldVariances());
  std::cout << "[measured] mean-field " << scheduleName(schedule) << " M=" << clients << " mean " << err.mean
            << " var " << err.cov << " invariant " << watch.worst << "\n";
  EXPECT_LT(err.mean, kExactTolerance);
  EXPECT_LT(err.cov, kExactTolerance);
  EXPECT_LE(watch.worst, kInvariantTolerance);
  EXPECT_TRUE(watch.alwaysValid);
  EXPECT_EQ(federation.clientRecordMismatch(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(AllSchedules, ConjugateExact,
                         ::testing::Combine(::testing::ValuesIn(kAllSchedules), ::testing::Values(1, 3, 10)),
                         [](const auto& info) {
                           return scheduleName(std::get<0>(info.param)) + "_" +
                                  std::to_string(std::get<1>(info.param)) + "clients";
                         });

TEST(ConjugateExact, RefinedPriorReachesExactPosterior) {
  // The prior hidden from PVI (gaussianPrior() empty): factor 0 is refined like a client with no
  // data from N(0, I); with closed-form expectations it becomes the exact prior factor.
  LinearGaussianModel model(60, 3, 3, 2026);
  model.setExposePrior(false);
  NaturalGradientOptions ng;
  ng.stepSize = 1.0;
  ng.maxSteps = 3;
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  auto federation =
      makeFederation<FullGaussian>(model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng), fo);
  ASSERT_TRUE(federation.priorRefined());
  InvariantWatch<FullGaussian> watch;
  watch.attach(federation.server());
  runSchedule(federation, Schedule::Synchronous, 60, 0.5);
  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.posteriorCovariance());
  EXPECT_LT(err.mean, kExactTolerance);
  EXPECT_LT(err.cov, kExactTolerance);
  const FullStandard prior = toStandard(federation.server().factor(0));
  EXPECT_LT((prior.m - model.priorMean()).norm(), 1e-8);
  EXPECT_LT((prior.S - model.priorCovariance()).norm(), 1e-8);
  EXPECT_LE(watch.worst, kInvariantTolerance);
  // The prior lives on the server: its updates are not messages.
  EXPECT_EQ(federation.server().counters().messagesDown, 60u * 3u);
}

}  // namespace
}  // namespace pvi::test
