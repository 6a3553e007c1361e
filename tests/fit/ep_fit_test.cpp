// `--algorithm ep-mu` and `ep-eta` end to end (runtime/fit/FitEp.cpp) on a compiled normal
// hierarchical model whose posterior is exact and Gaussian:
//
//   mu ~ N(0, 3^2),  a_j ~ N(mu, 1),  y_jk ~ N(a_j, 1),  j = 1..8 groups of K = 5,
//
// so every site's tilted distribution is Gaussian in mu (a_j integrated out: ybar_j ~ N(mu, 1 +
// 1/K)) and EP's fixed point is the exact posterior, for mu and for each a_j. With one NUTS draw
// per site update the fit's average must land within its Monte Carlo error of it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "model_harness.hpp"
#include "runtime/fit/Fit.hpp"

namespace pvi::test {
namespace {

constexpr int kGroups = 8, kPerGroup = 5;
constexpr double kEpPriorSd = 3.0;

struct Hierarchy {
  Compiled compiled;
  std::unique_ptr<CompiledModel> model;
  double muMean = 0.0, muSd = 0.0;
  std::vector<double> aMean, aSd;
};

const Hierarchy& hierarchy() {
  static const Hierarchy h = [] {
    Hierarchy out;
    out.compiled = compileModel(R"(
@partition(g)
data per g { int N; vector[N] y; }
global { real mu; }
local per g { real a; }
model { mu ~ normal(0, 3); a ~ normal(mu, 1); y ~ normal(a, 1); }
)");
    if (!out.compiled.jit) throw std::runtime_error(out.compiled.errors);
    std::mt19937_64 rng(17);
    std::normal_distribution<double> nd;
    std::vector<DataBlock> parts;
    std::vector<double> ybar;
    for (int j = 0; j < kGroups; ++j) {
      const double a = 1.0 + nd(rng);
      std::vector<double> y;
      for (int k = 0; k < kPerGroup; ++k) y.push_back(a + nd(rng));
      double s = 0.0;
      for (double v : y) s += v;
      ybar.push_back(s / kPerGroup);
      DataBlock p;
      p.addInt(kPerGroup).addReals(y);
      parts.push_back(std::move(p));
    }
    out.model = std::make_unique<CompiledModel>(out.compiled.jit->code(), out.compiled.lowered->info, DataBlock{},
                                                std::move(parts));
    const double v = 1.0 + 1.0 / kPerGroup;  // Var(ybar_j | mu)
    double precision = 1.0 / (kEpPriorSd * kEpPriorSd), weighted = 0.0;
    for (double b : ybar) precision += 1.0 / v, weighted += b / v;
    out.muMean = weighted / precision;
    out.muSd = std::sqrt(1.0 / precision);
    // a_j | mu, y ~ N((mu + K ybar_j) / (1 + K), 1 / (1 + K)), mu integrated over its posterior.
    for (double b : ybar) {
      out.aMean.push_back((out.muMean + kPerGroup * b) / (1.0 + kPerGroup));
      out.aSd.push_back(std::sqrt(1.0 / (1.0 + kPerGroup) + std::pow(out.muSd / (1.0 + kPerGroup), 2)));
    }
    return out;
  }();
  return h;
}

FitResult fitEp(Algorithm a, std::uint64_t seed) {
  FitOptions o;
  o.algorithm = a;
  o.seed = seed;
  o.threads = 2;
  return fitModel(*hierarchy().model, o);
}

// Measured over seeds 1-5 for both variants (printed): the worst |mean error| of mu is 0.047
// posterior sds and its sd is within 0.935-1.057 of the exact one; the bounds are 0.12 sd and 10%.
TEST(EpFit, OneDrawPerUpdateReachesTheExactHierarchicalPosterior) {
  const Hierarchy& h = hierarchy();
  for (Algorithm a : {Algorithm::EpMu, Algorithm::EpEta}) {
    for (std::uint64_t seed : {1, 2}) {
      const FitResult f = fitEp(a, seed);
      ASSERT_TRUE(f.usable) << f.status;
      EXPECT_TRUE(f.converged) << algorithmName(a) << " seed " << seed << ": " << f.status;
      EXPECT_EQ(f.prior, "exact Gaussian prior, held by the server as eta_0");
      const GaussianPosterior& g = f.posterior.gaussian();
      const double meanErr = (g.mean[0] - h.muMean) / h.muSd, sdRatio = std::sqrt(g.covariance(0, 0)) / h.muSd;
      std::cout << "[measured] " << algorithmName(a) << " seed " << seed << ": mu (mean - exact) / sd " << meanErr
                << ", sd / exact " << sdRatio << "\n";
      EXPECT_LT(std::abs(meanErr), 0.12) << algorithmName(a) << " seed " << seed;
      EXPECT_NEAR(sdRatio, 1.0, 0.1) << algorithmName(a) << " seed " << seed;
      // Each group's local, from draws of its own tilted distribution at the end.
      ASSERT_EQ(g.locals.size(), static_cast<std::size_t>(kGroups));
      for (int j = 0; j < kGroups; ++j) {
        EXPECT_NEAR(g.locals[j].mean[0], h.aMean[j], 0.15 * h.aSd[j]) << "group " << j + 1;
        EXPECT_NEAR(g.locals[j].sd[0] / h.aSd[j], 1.0, 0.1) << "group " << j + 1;
      }
      // The trace: one record per iteration, cumulative sampler steps, one message each way per
      // site per iteration.
      ASSERT_EQ(f.trace.size(), f.choice.rounds);
      EXPECT_GT(f.trace.back().metrics.at("sampler_steps"), f.trace.front().metrics.at("sampler_steps"));
      EXPECT_EQ(f.counters.messagesUp, f.choice.rounds * kGroups);
      EXPECT_EQ(f.counters.messagesDown, f.choice.rounds * kGroups);
      EXPECT_TRUE(std::isnan(f.elbo.value));  // EP has no ELBO
    }
  }
}

// KL(q || reference) is traced every iteration when a reference is given, and falls. One
// iterate of one-draw EP fluctuates: over seeds 1-4 the last iterate's KL was 0.0004-0.054 and
// the mean of the last 100 iterations' 0.004-0.030, so the bound is on that mean.
TEST(EpFit, TracesTheKlToAReference) {
  const Hierarchy& h = hierarchy();
  FitOptions o;
  o.algorithm = Algorithm::EpMu;
  o.rounds = 400;
  o.ep.referenceMean = Eigen::VectorXd::Constant(1, h.muMean);
  o.ep.referenceCovariance = Eigen::MatrixXd::Constant(1, 1, h.muSd * h.muSd);
  const FitResult f = fitModel(*h.model, o);
  ASSERT_EQ(f.trace.size(), 400u);
  const double first = f.trace.front().metrics.at("kl_to_reference");
  double last = 0.0;
  for (std::size_t k = 300; k < 400; ++k) last += f.trace[k].metrics.at("kl_to_reference") / 100.0;
  EXPECT_LT(last, 0.05);
  EXPECT_LT(last, first / 10.0);
}

TEST(EpFit, RequestsItCannotServeAreRefused) {
  const Hierarchy& h = hierarchy();
  FitOptions o;
  o.algorithm = Algorithm::EpMu;
  o.family = FamilyKind::MeanField;
  EXPECT_THROW(fitModel(*h.model, o), FitConfigurationError);
  o = {};
  o.algorithm = Algorithm::Ep;
  o.ep.samples = 3;  // D + 2 = 3: the unbiased natural-parameter estimate needs more
  try {
    fitModel(*h.model, o);
    ADD_FAILURE() << "ep with 3 draws per update was accepted";
  } catch (const FitConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("above D + 2 = 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pvi::test
