// Property 6: asynchronous PVI with dropped clients still converges on the conjugate model.
//
// Ten clients with jittered latencies (one five times slower than the rest, so its cavities are
// always stale), every update lost with probability 0.3 and one client's with probability 0.8
// (mostly offline). Natural-gradient fixed point with closed-form expectations, damping 1/2.
// Both executors: the deterministic virtual-time simulation and real threads. The posterior must
// reach the exact one (full covariance) or the mean-field optimum (mean-field family) to 1e-8
// relative, as in the synchronous case (pvi_conjugate_test.cpp: the error left by damped
// convergence after >= 40 accepted updates per client is < 1e-12; dropped updates only delay).
// The bookkeeping must add up: every attempt is an uplink message, accepted or rejected or lost.
#include <gtest/gtest.h>

#include <iostream>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::support;
using namespace pvi::federation;
using namespace pvi::algorithms;

SimulatedLinks unreliableLinks() {
  SimulatedLinks links;
  links.defaultLatency = 1.0;
  links.meanLatency = {1.0, 1.0, 1.0, 5.0};   // factor 3 is slow
  links.defaultDropProbability = 0.3;
  links.dropProbability = {0.0, 0.3, 0.8};    // factor 2 is mostly offline
  links.jitter = 0.8;
  links.seed = 12;
  return links;
}

template <class Family>
void checkCounters(const Federation<Family>& federation, std::size_t attempts) {
  const CommunicationCounters& c = federation.server().counters();
  EXPECT_EQ(c.messagesUp, attempts);
  EXPECT_EQ(c.messagesDown, attempts);
  EXPECT_EQ(c.accepted + c.rejected + c.dropped, attempts);
  EXPECT_GT(c.dropped, attempts / 5);  // about 30 % lost
  EXPECT_EQ(c.rejected, 0u);
  EXPECT_EQ(c.bytesUp, c.messagesUp * 8 * payloadDoubles(federation.server().posterior()));
}

class AsyncWithDropouts : public ::testing::TestWithParam<AsyncExecutor> {};

TEST_P(AsyncWithDropouts, FullCovarianceConvergesToExactPosterior) {
  LinearGaussianModel model(80, 3, 10, 4242);
  NaturalGradientOptions ng;
  ng.stepSize = 1.0;
  ng.maxSteps = 2;
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  auto federation =
      makeFederation<FullGaussian>(model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng), fo);
  InvariantWatch<FullGaussian> watch;
  watch.attach(federation.server());
  const SimulatedLinks links = unreliableLinks();
  AsynchronousOptions o;
  o.maxUpdates = 3000;
  o.damping = 0.5;
  o.links = &links;
  o.executor = GetParam();
  o.secondsPerLatencyUnit = 1e-5;
  runAsynchronous(federation, o);

  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.posteriorCovariance());
  std::cout << "[measured] async dropout full: mean " << err.mean << " cov " << err.cov << " dropped "
            << federation.server().counters().dropped << " of " << o.maxUpdates << ", mostly-offline client committed "
            << federation.client(2).updatesCommitted() << "\n";
  EXPECT_LT(err.mean, 1e-8);
  EXPECT_LT(err.cov, 1e-8);
  EXPECT_LE(watch.worst, 1e-12);
  EXPECT_TRUE(watch.alwaysValid);
  EXPECT_EQ(federation.clientRecordMismatch(), 0.0);
  checkCounters(federation, o.maxUpdates);
  EXPECT_GE(federation.client(2).updatesCommitted(), 5u);
}

TEST_P(AsyncWithDropouts, MeanFieldConvergesToMeanFieldOptimum) {
  // Here a client's update depends on its (stale) cavity, so staleness really matters.
  LinearGaussianModel model(80, 3, 10, 4243);
  model.setDiagonalPrior();
  NaturalGradientOptions ng;
  ng.stepSize = 0.5;
  ng.maxSteps = 200;
  ng.tolerance = 1e-14;
  FederationOptions<MeanFieldGaussian> fo;
  fo.exact = &model;
  auto federation = makeFederation<MeanFieldGaussian>(
      model, std::make_shared<NaturalGradientOptimiser<MeanFieldGaussian>>(ng), fo);
  const SimulatedLinks links = unreliableLinks();
  AsynchronousOptions o;
  o.maxUpdates = 4000;
  o.damping = 0.5;
  o.links = &links;
  o.executor = GetParam();
  o.secondsPerLatencyUnit = 1e-5;
  runAsynchronous(federation, o);
  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.meanFieldVariances());
  std::cout << "[measured] async dropout mean-field: mean " << err.mean << " var " << err.cov << "\n";
  EXPECT_LT(err.mean, 1e-8);
  EXPECT_LT(err.cov, 1e-8);
  EXPECT_LE(federation.server().invariantError(), 1e-12);
  checkCounters(federation, o.maxUpdates);
}

INSTANTIATE_TEST_SUITE_P(Executors, AsyncWithDropouts,
                         ::testing::Values(AsyncExecutor::VirtualTime, AsyncExecutor::Threads),
                         [](const auto& info) {
                           return std::string(info.param == AsyncExecutor::VirtualTime ? "VirtualTime" : "Threads");
                         });

TEST(AsyncWithDropouts, VirtualTimeIsReproducible) {
  LinearGaussianModel model(40, 3, 4, 4244);
  model.setDiagonalPrior();
  NaturalGradientOptions ng;
  ng.stepSize = 0.5;
  ng.maxSteps = 5;
  FederationOptions<MeanFieldGaussian> fo;
  fo.exact = &model;
  const SimulatedLinks links = unreliableLinks();
  auto run = [&] {
    auto federation = makeFederation<MeanFieldGaussian>(
        model, std::make_shared<NaturalGradientOptimiser<MeanFieldGaussian>>(ng), fo);
    AsynchronousOptions o;
    o.maxUpdates = 37;
    o.links = &links;
    runAsynchronous(federation, o);
    return federation.server().posterior();
  };
  EXPECT_EQ(maxAbsDifference(run(), run()), 0.0);
}

}  // namespace
}  // namespace pvi::test
