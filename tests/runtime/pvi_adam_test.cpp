// Property 2 with the default optimiser, Adam on Monte Carlo reparameterised gradients, on the
// conjugate linear-Gaussian model, for every schedule and 1, 3 and 10 clients.
//
// Deterministic part: with the model's closed-form expectations in place of Monte Carlo
// (AdamOptions::useExactExpectations) the same optimiser must reach the exact posterior to
// 1e-8 relative; this checks the assembly of the Adam gradient (expectation, cavity and entropy
// terms, chain rule to the stable parameters) without noise. Adam with exact gradients settles
// to rounding level within the step budget here (measured ~1e-15).
//
// Monte Carlo part (every schedule except the threaded asynchronous executor, whose timing-
// dependent arrival order would make a statistical test flaky; the virtual-time executor covers
// stale asynchronous updates): the result of a stochastic optimiser is a random variable, so the
// tolerance comes from its own Monte Carlo spread. Each configuration is run R = 16 times with independent
// seeds; for each of the 9 quantities (3 means, 6 distinct covariance entries) the replicate
// mean error must be within 5 standard errors of zero, |mean_r(err)| <= 5 sd_r / sqrt(R), i.e.
// PVI with Adam is unbiased for the exact posterior up to Monte Carlo error (for t with 15 degrees
// of freedom, P(|t| > 5) = 1.6e-4 per check). Independently, as a precision requirement (not a
// Monte Carlo bound), the spread must be small: sd_r of each mean below 0.25 posterior standard
// deviations and of each variance below 0.25 of the variance. The optimiser settings (learning
// rate 0.05 decaying linearly to 1e-3, 800 steps, 8 draws) were chosen so that local optimisation
// converges: with too few steps the first local problems stop short and the test detects the
// resulting bias (z > 10), as it should.
#include <gtest/gtest.h>

#include <iostream>
#include <tuple>

#include "PviTestSupport.hpp"
#include "runtime/algorithms/pvi/LocalGradient.hpp"

namespace pvi::test {
namespace {
using namespace pvi::estimation;
using namespace pvi::federation;
using namespace pvi::algorithms;

constexpr int kReplicates = 16;
constexpr double kZ = 5.0;

AdamOptions convergedAdam() {
  AdamOptions a;
  a.learningRate = 0.05;
  a.finalLearningRateFraction = 0.02;
  a.steps = 800;
  a.samples = 8;
  return a;
}

// err = (m - m*, S_ij - S*_ij for i >= j) of a run.
Eigen::VectorXd errors(const FullNatural& eta, const LinearGaussianModel& model) {
  const FullStandard q = toStandard(eta);
  const Eigen::VectorXd m = model.posteriorMean();
  const Eigen::MatrixXd S = model.posteriorCovariance();
  Eigen::VectorXd e(9);
  e.head(3) = q.m - m;
  int k = 3;
  for (int j = 0; j < 3; ++j)
    for (int i = j; i < 3; ++i) e(k++) = q.S(i, j) - S(i, j);
  return e;
}

class AdamConjugate : public ::testing::TestWithParam<std::tuple<Schedule, int>> {};

TEST_P(AdamConjugate, ExactGradientsReachExactPosterior) {
  const auto [schedule, clients] = GetParam();
  LinearGaussianModel model(60, 3, clients, 2024);
  AdamOptions a = convergedAdam();
  a.steps = 3000;
  a.useExactExpectations = true;
  FederationOptions<FullGaussian> fo;
  fo.exact = &model;
  auto federation = makeFederation<FullGaussian>(model, std::make_shared<AdamOptimiser<FullGaussian>>(a), fo);
  runSchedule(federation, schedule, 2, 1.0);
  const PosteriorError err =
      posteriorError(federation.server().posterior(), model.posteriorMean(), model.posteriorCovariance());
  std::cout << "[measured] Adam exact-gradient " << scheduleName(schedule) << " M=" << clients << " mean " << err.mean
            << " cov " << err.cov << "\n";
  EXPECT_LT(err.mean, 1e-8);
  EXPECT_LT(err.cov, 1e-8);
}

void checkMonteCarloUnbiased(Schedule schedule, int clients) {
  LinearGaussianModel model(60, 3, clients, 2024);
  Eigen::MatrixXd errs(kReplicates, 9);
  for (int r = 0; r < kReplicates; ++r) {
    auto federation =
        makeFederation<FullGaussian>(model, std::make_shared<AdamOptimiser<FullGaussian>>(convergedAdam()));
    InvariantWatch<FullGaussian> watch;
    watch.attach(federation.server());
    runSchedule(federation, schedule, 2, 1.0, 100 + static_cast<std::uint64_t>(r));
    ASSERT_LE(watch.worst, 1e-12);
    errs.row(r) = errors(federation.server().posterior(), model).transpose();
  }
  const Eigen::RowVectorXd mean = errs.colwise().mean();
  const Eigen::RowVectorXd sd = ((errs.rowwise() - mean).array().square().colwise().sum() / (kReplicates - 1.0)).sqrt();
  const Eigen::RowVectorXd z = mean.array() / (sd.array() / std::sqrt(static_cast<double>(kReplicates)));
  std::cout << "[measured] Adam MC " << scheduleName(schedule) << " M=" << clients << " max|z| "
            << z.cwiseAbs().maxCoeff() << " max|mean err| " << mean.cwiseAbs().maxCoeff() << " sd(m) " << sd.head(3)
            << "\n";
  const Eigen::MatrixXd S = model.posteriorCovariance();
  for (int k = 0; k < 9; ++k) EXPECT_LE(std::abs(z(k)), kZ) << "quantity " << k << " biased";
  for (int i = 0; i < 3; ++i) EXPECT_LT(sd(i), 0.25 * std::sqrt(S(i, i))) << "mean " << i;
  EXPECT_LT(sd(3), 0.25 * S(0, 0));  // entries 3, 6, 8 are the variances
  EXPECT_LT(sd(6), 0.25 * S(1, 1));
  EXPECT_LT(sd(8), 0.25 * S(2, 2));
  // The covariances (entries 4, 5, 7: S10, S20, S21) on the scale sqrt(S_ii S_jj), as the variances.
  EXPECT_LT(sd(4), 0.25 * std::sqrt(S(0, 0) * S(1, 1)));
  EXPECT_LT(sd(5), 0.25 * std::sqrt(S(0, 0) * S(2, 2)));
  EXPECT_LT(sd(7), 0.25 * std::sqrt(S(1, 1) * S(2, 2)));
}

std::string adamCaseName(const ::testing::TestParamInfo<std::tuple<Schedule, int>>& info) {
  return scheduleName(std::get<0>(info.param)) + "_" + std::to_string(std::get<1>(info.param)) + "clients";
}

INSTANTIATE_TEST_SUITE_P(AllSchedules, AdamConjugate,
                         ::testing::Combine(::testing::ValuesIn(kAllSchedules), ::testing::Values(1, 3, 10)), adamCaseName);

// The threaded asynchronous executor's arrival order depends on timing, so its replicate
// statistics are not reproducible and a 5-sigma test on them would fail at random now and then;
// the virtual-time executor covers asynchronous (stale) updates deterministically.
class AdamMonteCarlo : public ::testing::TestWithParam<std::tuple<Schedule, int>> {};

TEST_P(AdamMonteCarlo, IsUnbiasedForExactPosterior) {
  checkMonteCarloUnbiased(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DeterministicSchedules, AdamMonteCarlo,
                         ::testing::Combine(::testing::Values(Schedule::SequentialFixed, Schedule::SequentialRandom,
                                                              Schedule::Synchronous, Schedule::AsyncVirtualTime),
                                            ::testing::Values(1, 3, 10)),
                         adamCaseName);

// A likelihood that can mini-batch: the linear model's partition with the likelihood part scaled
// by N / |batch| (an unbiased estimate of f).
class MiniBatchLinearLikelihood final : public LocalLikelihood {
 public:
  MiniBatchLinearLikelihood(const LinearGaussianModel& model, int partition) : model_(model), part_(partition) {}
  std::size_t globalDim() const override { return 3; }
  double evaluate(const double* z, const double*, double* gradZ, double*) const override {
    return model_.partitionLogDensity(static_cast<size_t>(part_), z, nullptr, nullptr, gradZ, nullptr, nullptr);
  }
  std::size_t numObservations() const override { return static_cast<std::size_t>(model_.parts()[part_].second); }
  double evaluateMiniBatch(const std::vector<std::size_t>& rows, const double* z, const double*, double* gradZ,
                           double*) const override {
    const int start = model_.parts()[part_].first;
    const double scale = static_cast<double>(numObservations()) / static_cast<double>(rows.size());
    const Eigen::Map<const Eigen::Vector3d> zz(z);
    const double s2 = model_.sigma() * model_.sigma();
    double value = 0.0;
    Eigen::Vector3d g = Eigen::Vector3d::Zero();
    for (std::size_t row : rows) {
      const int i = start + static_cast<int>(row);
      const double r = model_.y()(i) - model_.X().row(i).dot(zz);
      value += -0.5 * (log2piConst() + std::log(s2)) - r * r / (2 * s2);
      g += model_.X().row(i).transpose() * r / s2;
    }
    if (gradZ) Eigen::Map<Eigen::Vector3d>{gradZ} = scale * g;
    return scale * value;
  }

 private:
  const LinearGaussianModel& model_;
  int part_;
};

TEST(AdamConjugate, MiniBatchesAreUnbiased) {
  // One client, 60 rows, batches of 10: same replicate test as above.
  LinearGaussianModel model(60, 3, 1, 2024);
  AdamOptions a = convergedAdam();
  a.miniBatchSize = 10;
  a.steps = 1500;
  auto optimiser = std::make_shared<AdamOptimiser<FullGaussian>>(a);
  Eigen::MatrixXd errs(kReplicates, 9);
  for (int r = 0; r < kReplicates; ++r) {
    std::vector<std::unique_ptr<Client<FullGaussian>>> clients;
    clients.push_back(std::make_unique<Client<FullGaussian>>(1, std::make_shared<MiniBatchLinearLikelihood>(model, 0),
                                                             optimiser, FullNatural::flat(3)));
    Federation<FullGaussian> federation(Server<FullGaussian>(*exactPriorFactor<FullGaussian>(model), 1),
                                        std::move(clients));
    runSchedule(federation, Schedule::SequentialFixed, 2, 1.0, 500 + static_cast<std::uint64_t>(r));
    errs.row(r) = errors(federation.server().posterior(), model).transpose();
  }
  const Eigen::RowVectorXd mean = errs.colwise().mean();
  const Eigen::RowVectorXd sd = ((errs.rowwise() - mean).array().square().colwise().sum() / (kReplicates - 1.0)).sqrt();
  const Eigen::RowVectorXd z = mean.array() / (sd.array() / std::sqrt(static_cast<double>(kReplicates)));
  // The spread over seeds is bounded too, else an estimator with much more noise (whose large sd
  // widens the z-test's own tolerance) would pass. Scale of each quantity, from the exact
  // posterior (closed form, independent of the optimiser): sqrt(S_ii) for a mean, sqrt(S_ii S_jj)
  // for a covariance entry S_ij. Measured: sd_r at most 0.17 of it. The bound 0.4 is over twice
  // that (the sd of R = 16 replicates has a relative standard error of 1 / sqrt(2 (R - 1)) = 0.18,
  // so 0.4 is ~6 of them above the measured value), and below what an estimator that does not
  // settle gives: with a constant learning rate (finalLearningRateFraction = 1) sd_r reaches 0.9
  // of the scale while every |z| stays below 2.6.
  const Eigen::MatrixXd S = model.posteriorCovariance();
  Eigen::RowVectorXd scale(9);
  int q = 0;
  for (int i = 0; i < 3; ++i) scale(q++) = std::sqrt(S(i, i));
  for (int j = 0; j < 3; ++j)
    for (int i = j; i < 3; ++i) scale(q++) = std::sqrt(S(i, i) * S(j, j));
  const Eigen::RowVectorXd spread = sd.cwiseQuotient(scale);
  std::cout << "[measured] Adam mini-batch max|z| " << z.cwiseAbs().maxCoeff() << " max sd / posterior scale "
            << spread.maxCoeff() << "\n";
  for (int k = 0; k < 9; ++k) EXPECT_LE(std::abs(z(k)), kZ) << "quantity " << k;
  for (int k = 0; k < 9; ++k) EXPECT_LT(spread(k), 0.4) << "quantity " << k << " spreads over seeds";
}

TEST(AdamConjugate, MiniBatchWithoutSupportFailsTheUpdate) {
  LinearGaussianModel model(20, 3, 1, 1);
  AdamOptions a;
  a.miniBatchSize = 5;
  auto federation = makeFederation<FullGaussian>(model, std::make_shared<AdamOptimiser<FullGaussian>>(a));
  runSchedule(federation, Schedule::SequentialFixed, 1, 1.0);
  EXPECT_EQ(federation.server().counters().rejected, 1u);
}

TEST(AdamConjugate, EarlyStoppingStopsAtConvergence) {
  LinearGaussianModel model(60, 3, 1, 2024);
  AdamOptions a = convergedAdam();
  a.steps = 5000;
  a.earlyStopping = EarlyStopping{50, 3, 2.0, 1e-4};
  AdamOptimiser<FullGaussian> optimiser(a);
  PartitionLikelihood f(model, 0, {});
  LocalProblem<FullGaussian> p;
  p.likelihood = &f;
  p.posterior = *exactPriorFactor<FullGaussian>(model);
  p.factor = FullNatural::flat(3);
  p.cavity = p.posterior;
  p.seed = 3;
  const LocalSolution<FullGaussian> s = optimiser.optimise(p);
  ASSERT_TRUE(s.ok) << s.reason;
  EXPECT_TRUE(s.stoppedEarly);
  EXPECT_LT(s.steps, 5000u);
  EXPECT_GT(s.objective, s.initialExpectedLogLik);  // it did optimise
}

// The stopping rule PVI's fits use without locals (fit/Fit.cpp: windows of 10 steps, patience 2),
// where q starts at the Laplace approximation, near each client's optimum. Here the start is the
// local optimum (the exact posterior: one client, the cavity is the prior) moved by one posterior
// sd in every mean and with every variance doubled; 8 draws per step. Over 16 seeds the optimiser
// must stop by itself within a tenth of its 3,000 steps, and its result's means lie within 0.25
// posterior sds of the exact ones and its variances within 25% (the precision requirement of the
// Monte Carlo part above). Stopping too soon (at the start's distance) or not at all fails it.
// From far away (the prior) windows of 10 steps can gain less than their noise and the rule stops
// short, which is why the fits with locals, whose q(w | z) starts far off, do not use it.
TEST(AdamConjugate, EarlyStoppingWaitsOutTheMonteCarloError) {
  const LinearGaussianModel model(60, 3, 1, 2024);
  const Eigen::VectorXd m = model.posteriorMean();
  const Eigen::MatrixXd S = model.posteriorCovariance();
  PartitionLikelihood f(model, 0, {});
  double worstMean = 0.0, worstVariance = 0.0;
  std::size_t mostSteps = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    AdamOptions a;
    a.learningRate = 0.05;
    a.finalLearningRateFraction = 0.1;
    a.steps = 3000;
    a.samples = 8;
    a.earlyStopping.window = 10;
    a.earlyStopping.patience = 2;
    AdamOptimiser<FullGaussian> optimiser(a);
    LocalProblem<FullGaussian> p;
    p.likelihood = &f;
    p.cavity = *exactPriorFactor<FullGaussian>(model);
    p.posterior = toNatural(FullStandard{m + S.diagonal().cwiseSqrt(), 2.0 * S});
    p.factor = p.posterior - p.cavity;
    p.seed = seed;
    const LocalSolution<FullGaussian> s = optimiser.optimise(p);
    ASSERT_TRUE(s.ok) << s.reason;
    EXPECT_TRUE(s.stoppedEarly) << "seed " << seed;
    const FullStandard q = toStandard(p.posterior + s.change);
    for (int i = 0; i < 3; ++i) {
      worstMean = std::max(worstMean, std::abs(q.m(i) - m(i)) / std::sqrt(S(i, i)));
      worstVariance = std::max(worstVariance, std::abs(q.S(i, i) / S(i, i) - 1.0));
    }
    mostSteps = std::max(mostSteps, s.steps);
  }
  std::cout << "[measured] early stopping: worst mean error " << worstMean << " posterior sds, worst variance error "
            << worstVariance << ", most steps " << mostSteps << "\n";
  EXPECT_LE(worstMean, 0.25);
  EXPECT_LE(worstVariance, 0.25);
  EXPECT_LE(mostSteps, 300u);
}

// Client::setWarmStart: after a damped update, the next update's q' starts where the last
// solution puts it now, the received q plus the part of the last change the server did not apply
// ((1 - rho scale) Delta'); without warm starts, or after a rejected update, at the received q.
class RecordingOptimiser final : public LocalOptimiser<MeanFieldGaussian> {
 public:
  explicit RecordingOptimiser(MeanFieldNatural change) : change_(std::move(change)) {}
  LocalSolution<MeanFieldGaussian> optimise(const LocalProblem<MeanFieldGaussian>& p) const override {
    problems.push_back(p);
    LocalSolution<MeanFieldGaussian> s;
    s.ok = true;
    s.change = change_;
    return s;
  }
  std::string name() const override { return "recording"; }
  mutable std::vector<LocalProblem<MeanFieldGaussian>> problems;

 private:
  MeanFieldNatural change_;
};

TEST(WarmStart, StartsWhereTheLastSolutionLeftOff) {
  const LinearGaussianModel model(20, 2, 1, 5);
  MeanFieldNatural change = MeanFieldNatural::flat(2);
  change.eta1 << 0.3, -0.2;
  change.eta2 << -0.5, -0.25;
  auto optimiser = std::make_shared<RecordingOptimiser>(change);
  for (const bool warm : {false, true}) {
    optimiser->problems.clear();
    Client<MeanFieldGaussian> client(1, std::make_shared<PartitionLikelihood>(model, 0, std::vector<double>{}),
                                     optimiser, MeanFieldNatural::flat(2));
    client.setWarmStart(warm);
    const MeanFieldNatural q = toNatural(MeanFieldStandard{Eigen::Vector2d(0.1, 0.2), Eigen::Vector2d(1.0, 2.0)});
    const ClientUpdate<MeanFieldGaussian> first = client.computeUpdate(q, 0.2, 1);
    ASSERT_TRUE(first.ok) << first.reason;
    EXPECT_FALSE(optimiser->problems.back().start.has_value());
    client.commit(first, 0.5);  // the server applied half of rho Delta
    const MeanFieldNatural q2 = q + 0.5 * first.delta;
    const ClientUpdate<MeanFieldGaussian> second = client.computeUpdate(q2, 0.2, 2);
    ASSERT_TRUE(second.ok);
    const auto& p = optimiser->problems.back();
    ASSERT_EQ(p.start.has_value(), warm);
    if (warm) {
      const MeanFieldNatural expected = q2 + (1.0 - 0.2 * 0.5) * change;
      EXPECT_LT((p.start->eta1 - expected.eta1).cwiseAbs().maxCoeff(), 1e-15);
      EXPECT_LT((p.start->eta2 - expected.eta2).cwiseAbs().maxCoeff(), 1e-15);
    }
    client.commit(second, 0.0);  // rejected: nothing to carry over
    ASSERT_TRUE(client.computeUpdate(q2, 0.2, 3).ok);
    EXPECT_FALSE(optimiser->problems.back().start.has_value());
  }
}

}  // namespace
}  // namespace pvi::test

namespace pvi::test {
namespace {

// Sticking the landing (runtime/algorithms/pvi/LocalGradient.hpp): at the exact optimum of a
// conjugate local problem (q = the posterior, cavity = the prior) f + log cavity - log q is
// constant in z, so the gradient from a single draw is zero, whatever the draw, to rounding. With
// the closed-form entropy gradient it would be O(1) per draw. Away from the optimum, the average
// over many draws matches the closed-form gradient (exact expectations) within Monte Carlo error.
TEST(AdamConjugate, StickingTheLandingGradientVanishesAtTheOptimum) {
  const LinearGaussianModel model(40, 3, 1, 7);
  PartitionLikelihood f(model, 0, {});
  const FullNatural cavity = *exactPriorFactor<FullGaussian>(model);
  const FullStable st = toStable(FullStandard{model.posteriorMean(), model.posteriorCovariance()});
  const FullOrigin o = whiteningOrigin(st);
  const Eigen::MatrixXd L = choleskyFactor(st);
  std::mt19937_64 rng(5);
  for (int draw = 0; draw < 20; ++draw) {
    const auto e = estimateDerivatives<FullGaussian>(f, st.m, L, nullptr, EstimationOptions{1, false, nullptr}, rng);
    const FullStable g = whiteGradientOf(o, whiteOrigin(o), st, L, e, cavity);
    EXPECT_LT(g.m.cwiseAbs().maxCoeff(), 1e-9) << draw;
    EXPECT_LT(Eigen::MatrixXd(g.logCholesky.triangularView<Eigen::Lower>()).cwiseAbs().maxCoeff(), 1e-9) << draw;
  }
}

TEST(AdamConjugate, StickingTheLandingGradientIsUnbiased) {
  const LinearGaussianModel model(40, 3, 1, 7);
  PartitionLikelihood mc(model, 0, {});
  PartitionLikelihood exact(model, 0, {}, &model);
  const FullNatural cavity = *exactPriorFactor<FullGaussian>(model);
  // A point away from the optimum: the posterior mean shifted, its covariance doubled.
  const FullStable st = toStable(FullStandard{model.posteriorMean().array() + 0.3, 2.0 * model.posteriorCovariance()});
  const FullOrigin o = whiteningOrigin(st);
  const Eigen::MatrixXd L = choleskyFactor(st);
  std::mt19937_64 rng(9);
  const auto reference = whiteGradientOf(
      o, whiteOrigin(o), st, L,
      estimateDerivatives<FullGaussian>(exact, st.m, L, nullptr, EstimationOptions{1, true, nullptr}, rng), cavity);
  const int n = 20000;
  const auto e = estimateDerivatives<FullGaussian>(mc, st.m, L, nullptr, EstimationOptions{n, false, nullptr}, rng);
  const FullStable g = whiteGradientOf(o, whiteOrigin(o), st, L, e, cavity);
  // Per draw the white gradient here has sd 1.0 (mean) to 4.3 (Cholesky entries), measured over
  // 4,000 draws: 5 standard errors of the largest.
  const double tolerance = 5.0 * 4.3 / std::sqrt(static_cast<double>(n));
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(g.m(i), reference.m(i), tolerance) << i;
    for (int j = 0; j <= i; ++j) EXPECT_NEAR(g.logCholesky(i, j), reference.logCholesky(i, j), tolerance) << i << j;
  }
}

}  // namespace
}  // namespace pvi::test
