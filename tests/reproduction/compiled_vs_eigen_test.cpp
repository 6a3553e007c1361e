// The JIT-compiled examples/logistic_regression/model.pvi against the hand-written Eigen
// logistic regression (EigenLogisticModel) on the real spambase data: the same densities and
// gradients at any z, and therefore the same PVI posterior from the same seeds.
#include <gtest/gtest.h>

#include <random>

#include "EigenLogisticModel.hpp"
#include "SpamFixture.hpp"
#include "runtime/algorithms/pvi/Pvi.hpp"

namespace spam::test {
namespace {

// The two differ only in summation order over a client's rows: rounding of order n * eps times
// the sum of |terms| (n = 368, terms up to ~10): well below 1e-10 relative.
constexpr double kEvalTolerance = 1e-10;

double relativeError(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

TEST(CompiledVsEigen, SameDensitiesAndGradients) {
  const Split split = splitA(spamData().client);
  const CompiledSplit compiled(split);
  const EigenLogisticModel eigen(spamData(), split);
  ASSERT_EQ(compiled.model.globalDim(), eigen.globalDim());
  ASSERT_EQ(compiled.model.numPartitions(), eigen.numPartitions());
  const auto d = static_cast<Eigen::Index>(eigen.globalDim());
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.0, 0.7);
  for (int trial = 0; trial < 4; ++trial) {
    Eigen::VectorXd z(d);
    for (auto& v : z) v = normal(rng);
    Eigen::VectorXd g1(d), g2(d);
    EXPECT_LT(relativeError(compiled.model.priorLogDensity(z.data(), nullptr, g1.data(), nullptr),
                            eigen.priorLogDensity(z.data(), nullptr, g2.data(), nullptr)),
              kEvalTolerance);
    EXPECT_LT((g1 - g2).cwiseAbs().maxCoeff() / std::max(1.0, g2.cwiseAbs().maxCoeff()), kEvalTolerance);
    for (size_t k = 0; k < eigen.numPartitions(); ++k) {
      const double v1 = compiled.model.partitionLogDensity(k, z.data(), nullptr, nullptr, g1.data(), nullptr, nullptr);
      const double v2 = eigen.partitionLogDensity(k, z.data(), nullptr, nullptr, g2.data(), nullptr, nullptr);
      EXPECT_LT(relativeError(v1, v2), kEvalTolerance) << "client " << k + 1;
      EXPECT_LT((g1 - g2).cwiseAbs().maxCoeff() / std::max(1.0, g2.cwiseAbs().maxCoeff()), kEvalTolerance)
          << "client " << k + 1;
    }
  }
}

TEST(CompiledVsEigen, ProbedPriorIsTheDeclaredOne) {
  const Split split = splitA(spamData().client);
  const CompiledSplit compiled(split);
  const EigenLogisticModel eigen(spamData(), split);
  const pvi::GaussianPrior probed = *compiled.model.gaussianPrior();
  const pvi::GaussianPrior declared = *eigen.gaussianPrior();
  for (size_t i = 0; i < declared.mean.size(); ++i) EXPECT_EQ(probed.mean[i], declared.mean[i]);
  for (size_t i = 0; i < declared.covariance.size(); ++i)
    EXPECT_NEAR(probed.covariance[i], declared.covariance[i], 1e-14);
}

// Synchronous PVI with Adam on both models, same seeds: the runs see the same random numbers and
// differ only by the evaluation rounding above, which the optimiser carries along smoothly
// (measured: ~6e-16 relative after 2 rounds of 150 steps; 1e-12 leaves room for other compilers
// and CPUs, and is far below any difference a wrong gradient or data layout would make).
TEST(CompiledVsEigen, SamePviPosterior) {
  const Split split = splitA(spamData().client);
  const CompiledSplit compiled(split);
  const EigenLogisticModel eigen(spamData(), split);
  pvi::algorithms::AdamOptions adam;
  adam.learningRate = 0.05;
  adam.finalLearningRateFraction = 0.02;
  adam.steps = 150;
  adam.samples = 4;
  auto optimiser = std::make_shared<pvi::algorithms::AdamOptimiser<pvi::MeanFieldGaussian>>(adam);
  pvi::federation::SynchronousOptions sync;
  sync.rounds = 2;
  sync.damping = 0.2;
  sync.seed = 5;
  auto fitted = [&](const pvi::FactorModel& model) {
    auto federation = pvi::federation::makeFederation<pvi::MeanFieldGaussian>(model, optimiser);
    EXPECT_FALSE(federation.priorRefined());
    pvi::federation::runSynchronous(federation, sync);
    EXPECT_EQ(federation.server().counters().rejected, 0u);
    return pvi::toStandard(federation.server().posterior());
  };
  const pvi::MeanFieldStandard a = fitted(compiled.model), b = fitted(eigen);
  const double meanError = (a.m - b.m).cwiseAbs().maxCoeff() / std::max(1.0, b.m.cwiseAbs().maxCoeff());
  const double varError = ((a.var - b.var).array() / b.var.array()).abs().maxCoeff();
  EXPECT_LT(meanError, 1e-12);
  EXPECT_LT(varError, 1e-12);
  // And the fit moved well away from the prior, so the agreement is not trivial.
  EXPECT_GT(b.m.cwiseAbs().maxCoeff(), 0.5);
}

}  // namespace
}  // namespace spam::test
