// The Section 5 baselines as special cases of the PVI machinery (runtime/algorithms/baselines/Baselines.hpp), on
// the conjugate linear-Gaussian model with closed-form expectations, where each has a known
// answer:
//   BCM same, BCM split and VCL are exact for a conjugate model (products of exact local
//   posteriors divided by the right power of the prior; one exact sequential pass);
//   streaming VB with two passes counts every likelihood twice: precision P0 + 2 X^T X / s^2,
//   mean (P0 + 2 X^T X / s^2)^{-1} (P0 m0 + 2 X^T y / s^2) -- the over-counting PVI's deletion
//   step avoids.
// Tolerance 1e-8 relative as in pvi_conjugate_test.cpp: exact arithmetic gives these answers and
// only rounding (~1e-15) separates the computed ones.
#include <gtest/gtest.h>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::federation;
using namespace pvi::algorithms;

Federation<FullGaussian> exactFederation(const LinearGaussianModel& model) {
  NaturalGradientOptions ng;
  ng.stepSize = 1.0;
  ng.maxSteps = 2;
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  return makeFederation<FullGaussian>(model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng), fo);
}

void expectExact(const Federation<FullGaussian>& federation, const LinearGaussianModel& model) {
  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.posteriorCovariance());
  EXPECT_LT(err.mean, 1e-8);
  EXPECT_LT(err.cov, 1e-8);
}

TEST(Baselines, BcmSameIsExactForConjugateModel) {
  LinearGaussianModel model(60, 3, 5, 61);
  auto federation = exactFederation(model);
  runBcmSame(federation);
  expectExact(federation, model);
  EXPECT_EQ(federation.server().counters().rounds, 1u);
}

TEST(Baselines, BcmSplitIsExactForConjugateModel) {
  LinearGaussianModel model(61, 3, 5, 62);  // unequal partition sizes
  auto federation = exactFederation(model);
  std::vector<std::size_t> sizes;
  for (const auto& [start, size] : model.parts()) sizes.push_back(static_cast<std::size_t>(size));
  runBcmSplit(federation, partitionWeights(sizes));
  expectExact(federation, model);
}

TEST(Baselines, VclIsExactForConjugateModel) {
  LinearGaussianModel model(60, 3, 5, 63);
  auto federation = exactFederation(model);
  runVcl(federation);
  expectExact(federation, model);
}

TEST(Baselines, StreamingVBOverCountsOnRevisits) {
  LinearGaussianModel model(60, 3, 5, 64);
  auto federation = exactFederation(model);
  runStreamingVB(federation, 2);
  const double s2 = model.sigma() * model.sigma();
  const Eigen::MatrixXd P0 = model.priorCovariance().inverse();
  const Eigen::MatrixXd P = P0 + 2.0 * model.X().transpose() * model.X() / s2;
  const Eigen::VectorXd m = P.inverse() * (P0 * model.priorMean() + 2.0 * model.X().transpose() * model.y() / s2);
  const PosteriorError err = posteriorError(federation.server().posterior(), m, P.inverse());
  EXPECT_LT(err.mean, 1e-8);
  EXPECT_LT(err.cov, 1e-8);
  // One pass alone is exact (it is VCL).
  auto once = exactFederation(model);
  runStreamingVB(once, 1);
  expectExact(once, model);
}

TEST(Baselines, RequireFreshFederation) {
  LinearGaussianModel model(60, 3, 2, 65);
  auto federation = exactFederation(model);
  runVcl(federation);
  EXPECT_THROW(runBcmSame(federation), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
