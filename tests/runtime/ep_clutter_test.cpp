// Minka's clutter problem in 1-D, the bundled example's data (examples/clutter: 100 observations
// over 5 clients, each client one EP site):
//
//   x_n ~ (1 - w) N(theta, 1) + w N(0, a),  w = 0.5, a = 10,  theta ~ N(0, 100).
//
// 1. Deterministic EP with quadrature moments converges to EP's fixed point (every site's tilted
//    moments equal the approximation's, to 1e-9).
// 2. EP-eta and EP-mu with exact moments reach that same fixed point (the test 3).
// 3. EP-eta and EP-mu with one NUTS draw per site update (SampledSites, as a fit runs them)
//    average to within KL 0.01 of it; plain EP with one draw per update cannot
//    move at all (one draw's moments are no distribution's: every update is skipped), which is
//    why it needs more than D + 2 draws per update (docs/fitting.md, "EP").
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "runtime/algorithms/ep/EpAverage.hpp"
#include "runtime/algorithms/ep/SampledSites.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::algorithms::ep {
namespace {

constexpr double kW = 0.5, kA = 10.0, kPriorSd = 10.0;

double logMixture(double x, double theta) {
  const double clutter = std::log(kW) - 0.5 * std::log(2.0 * M_PI * kA) - 0.5 * x * x / kA;
  const double signal = std::log1p(-kW) - 0.5 * std::log(2.0 * M_PI) - 0.5 * (x - theta) * (x - theta);
  const double top = std::max(clutter, signal);
  return top + std::log(std::exp(clutter - top) + std::exp(signal - top));
}

class ClutterSite : public estimation::LocalLikelihood {
 public:
  explicit ClutterSite(std::vector<double> x) : x_(std::move(x)) {}
  std::size_t globalDim() const override { return 1; }
  double evaluate(const double* z, const double*, double* gz, double*) const override {
    double f = 0.0, g = 0.0;
    for (double x : x_) {
      const double l = logMixture(x, z[0]);
      f += l;
      // d/dtheta: the signal component's responsibility times (x - theta).
      const double signal = std::log1p(-kW) - 0.5 * std::log(2.0 * M_PI) - 0.5 * (x - z[0]) * (x - z[0]);
      g += std::exp(signal - l) * (x - z[0]);
    }
    if (gz) gz[0] = g;
    return f;
  }
  const std::vector<double>& x() const { return x_; }

 private:
  std::vector<double> x_;
};

std::vector<std::vector<double>> clientData() {
  std::ifstream in(std::string(PVI_SOURCE_DIR) + "/examples/clutter/data_per_client.csv");
  std::string line;
  std::getline(in, line);  // client,x
  std::map<int, std::vector<double>> byClient;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string client, x;
    std::getline(row, client, ',');
    std::getline(row, x);
    byClient[std::stoi(client)].push_back(std::stod(x));
  }
  std::vector<std::vector<double>> out;
  for (auto& [c, xs] : byClient) out.push_back(std::move(xs));
  return out;
}

// E[theta] and E[theta^2] of the tilted distribution cavity(theta) * exp(f(theta) / beta), by the
// trapezoid rule on 4,001 points over the cavity's mean +- 15 sds (the tilted mass lies well
// inside: the sites pull it by a few sds at most).
FullMean quadratureMoments(const ClutterSite& site, const FullNatural& cavity, double beta) {
  const FullStandard c = toStandard(cavity);
  const double m = c.m(0), s = std::sqrt(c.S(0, 0));
  const int n = 4001;
  std::vector<double> t(n), logp(n);
  double top = -INFINITY;
  for (int k = 0; k < n; ++k) {
    t[k] = m - 15.0 * s + 30.0 * s * k / (n - 1);
    logp[k] = cavity.eta1(0) * t[k] + cavity.eta2(0, 0) * t[k] * t[k] +
              site.evaluate(&t[k], nullptr, nullptr, nullptr) / beta;
    top = std::max(top, logp[k]);
  }
  double z0 = 0.0, z1 = 0.0, z2 = 0.0;
  for (int k = 0; k < n; ++k) {
    const double w = (k == 0 || k == n - 1 ? 0.5 : 1.0) * std::exp(logp[k] - top);
    z0 += w;
    z1 += w * t[k];
    z2 += w * t[k] * t[k];
  }
  return FullMean{Eigen::VectorXd::Constant(1, z1 / z0), Eigen::MatrixXd::Constant(1, 1, z2 / z0)};
}

struct Clutter {
  std::vector<std::shared_ptr<const estimation::LocalLikelihood>> sites;
  std::vector<const ClutterSite*> typed;
  FullNatural prior =
      toNatural(FullStandard{Eigen::VectorXd::Zero(1), Eigen::MatrixXd::Constant(1, 1, kPriorSd* kPriorSd)});
  Clutter() {
    for (auto& xs : clientData()) {
      auto s = std::make_shared<ClutterSite>(xs);
      typed.push_back(s.get());
      sites.push_back(std::move(s));
    }
  }
  TiltedMoments<FullGaussian> exact() const {
    return [this](std::size_t i, const FullNatural& cavity, double beta) -> std::optional<FullMean> {
      return quadratureMoments(*typed[i], cavity, beta);
    };
  }
};

// EP's solution by deterministic, damped EP with quadrature moments.
FullStandard epSolution(const Clutter& c, Variant v = Variant::Ep, double step = 0.5, std::size_t iterations = 300) {
  EpOptions<FullGaussian> o;
  o.variant = v;
  o.step = step;
  o.iterations = iterations;
  return toStandard(runEp<FullGaussian>(c.prior, c.sites.size(), c.exact(), o).theta);
}

TEST(Clutter, DeterministicEpReachesItsFixedPoint) {
  const Clutter c;
  ASSERT_EQ(c.sites.size(), 5u);
  EpOptions<FullGaussian> o;
  o.variant = Variant::Ep;
  o.step = 0.5;
  o.iterations = 300;
  const EpResult<FullGaussian> r = runEp<FullGaussian>(c.prior, c.sites.size(), c.exact(), o);
  EXPECT_EQ(r.skipped, 0u);
  EXPECT_EQ(r.rejected, 0u);
  const FullMean mu = toMean(r.theta);
  for (std::size_t i = 0; i < c.sites.size(); ++i) {
    const FullMean tilted = quadratureMoments(*c.typed[i], tiltedNatural(r.theta, r.sites[i], 1.0), 1.0);
    EXPECT_NEAR(tilted.m(0), mu.m(0), 1e-9) << "site " << i + 1;
    EXPECT_NEAR(tilted.second(0, 0), mu.second(0, 0), 1e-9) << "site " << i + 1;
  }
  const FullStandard q = toStandard(r.theta);
  std::cout << "[measured] EP's solution: theta ~ N(" << q.m(0) << ", " << std::sqrt(q.S(0, 0)) << "^2)\n";
  // The generator's theta is 2; the posterior puts it within a few sds.
  EXPECT_LT(std::abs(q.m(0) - 2.0), 4.0 * std::sqrt(q.S(0, 0)));
}

TEST(Clutter, AllThreeVariantsShareTheFixedPointWithExactMoments) {
  const Clutter c;
  const FullStandard ep = epSolution(c);
  for (Variant v : {Variant::EpEta, Variant::EpMu}) {
    const FullStandard q = epSolution(c, v, 0.5, 600);
    EXPECT_LT(kl(q, ep), 1e-10) << variantName(v);
  }
}

TEST(Clutter, OneNutsDrawPerUpdateReachesEpsSolution) {
  const Clutter c;
  const FullStandard ep = epSolution(c);
  for (Variant v : {Variant::EpMu, Variant::EpEta}) {
    TiltedSamplerOptions so;
    so.seed = 3;
    SampledSites sampled(c.sites, 1, so);
    EpOptions<FullGaussian> o;
    o.variant = v;
    // eps 0.5 / sites falling to 0.1 / sites over the first tenth with the draws' own moments, then
    // Stein's estimator for the sites that are a small part of their tilted distributions (a fit
    // also picks the least noisy estimator in the warm-up and backs off; runtime/fit/FitEp.cpp).
    o.step = 0.02;
    o.startStep = 0.1;
    o.iterations = 4000;
    o.decayIterations = o.iterations / 10;
    EpAverage average(1, o.iterations);
    o.afterIteration = [&](std::size_t it, const EpResult<FullGaussian>& run) {
      sampled.setGlobalVariances(toStandard(run.theta).S.diagonal());
      if (it == o.decayIterations) sampled.setMomentEstimator(MomentEstimator::Adaptive);
      sampled.setApproximation(toStandard(run.theta), false);
      average.add(it, run.theta);
      return false;
    };
    const EpResult<FullGaussian> r = runEp<FullGaussian>(c.prior, c.sites.size(), sampled.moments(), o);
    const double divergence = kl(average.of(v), ep);
    std::cout << "[measured] clutter, " << variantName(v) << " with 1 NUTS draw per update: KL(average || EP) "
              << divergence << ", " << sampled.gradientEvaluations() << " sampler steps, " << r.skipped << " skipped\n";
    EXPECT_LT(divergence, 0.01) << variantName(v);
  }
  // Plain EP cannot use one draw: its update maps the draw's moments (a point mass) to natural
  // parameters. Every update is skipped, and the approximation stays at the prior.
  TiltedSamplerOptions so;
  SampledSites sampled(c.sites, 1, so);
  EpOptions<FullGaussian> o;
  o.variant = Variant::Ep;
  o.step = 0.5;
  o.iterations = 20;
  const EpResult<FullGaussian> r = runEp<FullGaussian>(c.prior, c.sites.size(), sampled.moments(), o);
  EXPECT_EQ(r.skipped, 20u * c.sites.size());
  EXPECT_GT(kl(toStandard(r.theta), ep), 1.0);
  ASSERT_FALSE(r.events.empty());
  EXPECT_NE(r.events.front().find("not those of a distribution"), std::string::npos) << r.events.front();
}

}  // namespace
}  // namespace pvi::algorithms::ep
