// Models with local latents: each client keeps a private q(w_k) (mean-field, independent of z)
// optimised inside its local free energy; only Delta_k leaves the client.
//
// Random-effects regression (PviTestModels.hpp): Gaussian in (z, w_1..w_M), so the optimum of
// PVI's family -- full q(z) times mean-field q(w_k) -- is known exactly: means equal the joint
// posterior means, q(z)'s precision is the (z, z) block of the joint precision, and each w_k
// coordinate's precision is the matching diagonal entry.
//   - Exact path (closed-form expectations over z and w): every schedule reaches that optimum to
//     1e-8 relative (only damped-convergence and rounding error remain, as in the conjugate test;
//     the data are chosen with moderate z-w posterior correlation, max 0.52, because mean-field
//     coordinate ascent converges at a rate set by it -- at 0.95 it takes hundreds of passes).
//   - Adam (Monte Carlo): replicate test as in pvi_adam_test.cpp: over R = 12 independent seeds the
//     mean error of every mean and variance (z and all w_k) must be within 5 standard errors of
//     zero (t with 11 d.o.f.: P(|t| > 5) = 4e-4 per check).
//   - The ClientUpdate a schedule sees carries no q(w_k).
#include <gtest/gtest.h>

#include <iostream>

#include "PviTestSupport.hpp"

namespace pvi::test {
namespace {
using namespace pvi::federation;
using namespace pvi::algorithms;

struct LocalsTruth {
  Eigen::VectorXd zMean;
  Eigen::MatrixXd zCov;
  std::vector<Eigen::VectorXd> wMean, wVar;
};

LocalsTruth truthOf(const RandomEffectsModel& model) {
  const Eigen::MatrixXd P = model.jointPrecision();
  const Eigen::VectorXd mean = model.jointMean();
  LocalsTruth t;
  t.zMean = mean.head(2);
  t.zCov = P.topLeftCorner(2, 2).inverse();
  for (std::size_t k = 0; k < model.numPartitions(); ++k) {
    const auto at = static_cast<Eigen::Index>(2 + 2 * k);
    t.wMean.push_back(mean.segment(at, 2));
    t.wVar.push_back(P.diagonal().segment(at, 2).cwiseInverse());
  }
  return t;
}

class LocalLatents : public ::testing::TestWithParam<Schedule> {};

TEST_P(LocalLatents, ExactPathReachesStructuredOptimum) {
  RandomEffectsModel model(8, 15, 808, 0.5, 0.2);  // max |posterior corr(z, w)| = 0.52
  const LocalsTruth truth = truthOf(model);
  NaturalGradientOptions ng;
  ng.stepSize = 0.5;
  ng.maxSteps = 100;
  ng.tolerance = 1e-14;
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  auto federation =
      makeFederation<FullGaussian>(model, std::make_shared<NaturalGradientOptimiser<FullGaussian>>(ng), fo);
  InvariantWatch<FullGaussian> watch;
  watch.attach(federation.server());
  // The z <-> w coupling makes convergence geometric with a rate set by the posterior correlation
  // (mean-field coordinate ascent); these budgets leave it below 1e-11 for every schedule.
  const bool sequential = GetParam() == Schedule::SequentialFixed || GetParam() == Schedule::SequentialRandom;
  runSchedule(federation, GetParam(), sequential ? 60 : 250, sequential ? 1.0 : 0.5);

  const PosteriorError err = posteriorError(federation.server().posterior(), truth.zMean, truth.zCov);
  double wErr = 0.0;
  for (std::size_t k = 1; k <= model.numPartitions(); ++k) {
    const ConditionalGaussian& qw = *federation.client(k).locals();
    wErr = std::max({wErr, (qw.mean - truth.wMean[k - 1]).norm() / truth.wMean[k - 1].norm(),
                     (qw.sd.array().square().matrix() - truth.wVar[k - 1]).norm() / truth.wVar[k - 1].norm()});
  }
  std::cout << "[measured] locals exact " << scheduleName(GetParam()) << ": z mean " << err.mean << " z cov " << err.cov
            << " w " << wErr << "\n";
  EXPECT_LT(err.mean, 1e-8);
  EXPECT_LT(err.cov, 1e-8);
  EXPECT_LT(wErr, 1e-8);
  EXPECT_LE(watch.worst, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(AllSchedules, LocalLatents, ::testing::ValuesIn(kAllSchedules),
                         [](const auto& info) { return scheduleName(info.param); });

TEST(LocalLatents, UpdatesCarryNoLocals) {
  RandomEffectsModel model(3, 10, 809);
  auto federation = makeFederation<FullGaussian>(model, std::make_shared<AdamOptimiser<FullGaussian>>(AdamOptions{}));
  Client<FullGaussian>& client = federation.client(1);
  const ConditionalGaussian before = *client.locals();
  const ClientUpdate<FullGaussian> u = client.computeUpdate(federation.server().posterior(), 1.0, 1);
  ASSERT_TRUE(u.ok) << u.reason;
  EXPECT_FALSE(u.solution.locals.has_value());
  EXPECT_EQ(client.locals()->mean, before.mean);  // not adopted before commit
  client.commit(u, 0.0);                          // rejected: proposal dropped
  EXPECT_EQ(client.locals()->mean, before.mean);
  const ClientUpdate<FullGaussian> v = client.computeUpdate(federation.server().posterior(), 1.0, 2);
  client.commit(v, 1.0);
  EXPECT_NE(client.locals()->mean, before.mean);
}

TEST(LocalLatents, AdamIsUnbiasedForStructuredOptimum) {
  RandomEffectsModel model(8, 15, 810, 0.5, 0.2);
  const LocalsTruth truth = truthOf(model);
  constexpr int kReplicates = 12;
  // Quantities: z mean (2), z cov (3 distinct), then per client w mean (2) and w var (2).
  const int nq = 5 + 4 * static_cast<int>(model.numPartitions());
  Eigen::MatrixXd errs(kReplicates, nq);
  AdamOptions a;
  a.learningRate = 0.05;
  a.finalLearningRateFraction = 0.02;
  a.steps = 800;
  a.samples = 8;
  for (int r = 0; r < kReplicates; ++r) {
    auto federation = makeFederation<FullGaussian>(model, std::make_shared<AdamOptimiser<FullGaussian>>(a));
    runSchedule(federation, Schedule::Synchronous, 8, 1.0, 900 + static_cast<std::uint64_t>(r));
    const FullStandard q = toStandard(federation.server().posterior());
    Eigen::VectorXd e(nq);
    e << q.m - truth.zMean, q.S(0, 0) - truth.zCov(0, 0), q.S(1, 0) - truth.zCov(1, 0), q.S(1, 1) - truth.zCov(1, 1),
        Eigen::VectorXd::Zero(nq - 5);
    for (std::size_t k = 1; k <= model.numPartitions(); ++k) {
      const ConditionalGaussian& qw = *federation.client(k).locals();
      const auto at = static_cast<Eigen::Index>(5 + 4 * (k - 1));
      e.segment(at, 2) = qw.mean - truth.wMean[k - 1];
      e.segment(at + 2, 2) = qw.sd.array().square().matrix() - truth.wVar[k - 1];
    }
    errs.row(r) = e.transpose();
  }
  const Eigen::RowVectorXd mean = errs.colwise().mean();
  const Eigen::RowVectorXd sd = ((errs.rowwise() - mean).array().square().colwise().sum() / (kReplicates - 1.0)).sqrt();
  const Eigen::RowVectorXd z = mean.array() / (sd.array() / std::sqrt(static_cast<double>(kReplicates)));
  // The spread over seeds is bounded too, else an estimator with much more noise (whose large sd
  // widens the z-test's own tolerance) would pass. Scale of each quantity, from the exact optimum
  // (closed form, independent of the optimiser): sqrt(S_ii) for a mean, sqrt(S_ii S_jj) for a
  // covariance entry S_ij, v for a variance v of q(w_k). Measured with sticking-the-landing
  // gradients: sd_r at most 0.066 of it (0.20 with the closed-form entropy gradient). The bound 0.15
  // is ~5 relative standard errors of the sd of R = 12 replicates (1 / sqrt(2 (R - 1)) = 0.21)
  // above the measured value, and far below what an estimator that does not settle gives: with a
  // constant learning rate (finalLearningRateFraction = 1) sd_r exceeds 1000 times the scale.
  // 8 rounds: with 4, q(w_6)'s mean was still 0.006 short of the optimum, which the z-test finds
  // (|z| = 6) once the noise is this small.
  Eigen::RowVectorXd scale(nq);
  scale << std::sqrt(truth.zCov(0, 0)), std::sqrt(truth.zCov(1, 1)), truth.zCov(0, 0),
      std::sqrt(truth.zCov(0, 0) * truth.zCov(1, 1)), truth.zCov(1, 1), Eigen::RowVectorXd::Zero(nq - 5);
  for (std::size_t k = 1; k <= model.numPartitions(); ++k) {
    const auto at = static_cast<Eigen::Index>(5 + 4 * (k - 1));
    scale.segment(at, 2) = truth.wVar[k - 1].cwiseSqrt().transpose();
    scale.segment(at + 2, 2) = truth.wVar[k - 1].transpose();
  }
  const Eigen::RowVectorXd spread = sd.cwiseQuotient(scale);
  std::cout << "[measured] locals Adam max|z| " << z.cwiseAbs().maxCoeff() << " max|mean err| "
            << mean.cwiseAbs().maxCoeff() << " max sd / scale " << spread.maxCoeff() << "\n";
  for (int k = 0; k < nq; ++k) EXPECT_LE(std::abs(z(k)), 5.0) << "quantity " << k;
  for (int k = 0; k < nq; ++k) EXPECT_LT(spread(k), 0.15) << "quantity " << k << " spreads over seeds";
}

}  // namespace
}  // namespace pvi::test
