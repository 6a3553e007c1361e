// `--algorithm ep`, `ep-eta` and `ep-mu`: EP over the model's partitions as sites
// (algorithms/ep/Ep.hpp), each site's tilted distribution over its globals and locals sampled by
// its own persistent NUTS chain (SampledSites.hpp). An exactly Gaussian prior is eta_0; any other
// prior is one more site, the server's, whose tilted distribution is over z alone.
//
// The reported approximation is the average of theta (and of every site) over the second half of
// the iterations: with one draw per update the iterates fluctuate around EP's fixed point, and
// the average of natural parameters of distributions is one. Its verdict compares the averages
// of the third and fourth quarters (EpVerdict below).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "runtime/algorithms/ep/Ep.hpp"
#include "runtime/algorithms/ep/EpAverage.hpp"
#include "runtime/algorithms/ep/LocalsFromDraws.hpp"
#include "runtime/algorithms/ep/SampledSites.hpp"
#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/fit/Fit.hpp"
#include "runtime/model/GaussianPriorProbe.hpp"
#include "runtime/samplers/nuts/SamplerError.hpp"
#include "runtime/support/Seeds.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi {

namespace {

using algorithms::ep::Variant;

// Locals with at most this many dimensions per partition get a correlated q(w | z) (as
// AlgorithmChoice's kCorrelatedLocalsMaxDim); above it, only the conditional variances.
constexpr Eigen::Index kCorrelatedLocalsMaxDim = 64;
// The drift the verdict accepts between the third and fourth quarters' averages: a mean moving
// by this many sds, or an sd changing by this fraction. Each quarter's average has about twice
// the Monte Carlo variance of the reported (second-half) average, so their difference has about
// twice its sd: a 15% change between quarters is about 7% of noise in the reported sd.
constexpr double kDriftMean = 0.1;
constexpr double kDriftSd = 0.15;
// EpOptions::startMargin: the warm-up's larger start ends when a cavity keeps less than half of
// the approximation's precision in some direction.
constexpr double kEpStartMargin = 0.5;
// EpOptions::backoffMargin: before the average, the step halves for good when the smallest
// cavity margin falls below a tenth of its own moving average.
constexpr double kEpBackoffMargin = 0.1;

Variant variantOf(Algorithm a) {
  return a == Algorithm::Ep ? Variant::Ep : a == Algorithm::EpEta ? Variant::EpEta : Variant::EpMu;
}

std::string shortNumber(double x) {
  std::ostringstream s;
  s.precision(3);
  s << x;
  return s.str();
}

// "N divergent transitions, K after the first half": the tilted chains' divergences, and those
// of the averaged half and the locals' draws, which can bias the result. Those before come mostly
// from a funnel's neck while q is still near the prior (docs/fitting.md, "EP").
std::string divergentTransitions(std::size_t all, std::size_t beforeAverage) {
  std::string s = std::to_string(all) + " divergent transitions";
  if (all == 0) return s;
  const std::size_t after = all - beforeAverage;
  return s + ", " + (after == 0 ? std::string("none") : std::to_string(after)) + " after the first half";
}

// Where the quarter averages differ most: the largest |mean difference| / sd and |sd ratio - 1|
// over the globals, with their names.
struct Drift {
  double mean = 0.0, sd = 0.0;
  std::size_t meanAt = 0, sdAt = 0;
};

Drift driftBetween(const FullStandard& a, const FullStandard& b) {
  Drift d;
  for (Eigen::Index k = 0; k < a.dim(); ++k) {
    const double sa = std::sqrt(a.S(k, k)), sb = std::sqrt(b.S(k, k));
    const double dm = std::abs(a.m(k) - b.m(k)) / sb, ds = std::abs(sa / sb - 1.0);
    if (dm > d.mean) d.mean = dm, d.meanAt = static_cast<std::size_t>(k);
    if (ds > d.sd) d.sd = ds, d.sdAt = static_cast<std::size_t>(k);
  }
  return d;
}

// An average of iterates as a distribution; nothing when its moments are not those of one (the
// iterates grew until their second moments lost the covariance to rounding).
std::optional<FullStandard> averageOf(const algorithms::ep::EpAverage& average, Variant v) {
  try {
    return average.of(v);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

std::string globalName(const FactorModel& model, std::size_t k) {
  const std::vector<std::string> names = model.globalNames();
  return k < names.size() ? "'" + names[k] + "'" : "coordinate " + std::to_string(k + 1);
}

// Partition j's term with a 1/J share of a prior that is not Gaussian:
//   f_j(z, w_j) = log p(w_j | z) + log p(y_j | z, w_j) + log p(z) / J,
// so that eta_0 is flat and every tilted distribution is proper when its cavity is. (A site of
// its own for the prior would need the sum of the partitions' sites as its cavity, which is
// rarely a distribution: a site's precision is negative along directions its data say little
// about.) The prior is public, so every site can evaluate it.
class PartitionWithPriorShare final : public estimation::LocalLikelihood {
 public:
  PartitionWithPriorShare(const FactorModel& model, std::size_t partition, std::vector<double> theta)
      : partition_(model, partition, theta),
        prior_(model, theta),
        share_(1.0 / static_cast<double>(model.numPartitions())),
        gradient_(model.globalDim()) {}
  std::size_t globalDim() const override { return partition_.globalDim(); }
  std::size_t localDim() const override { return partition_.localDim(); }
  double evaluate(const double* z, const double* w, double* gradZ, double* gradW) const override {
    thread_local std::vector<double> g;
    g.resize(gradient_);
    const double f = partition_.evaluate(z, w, gradZ, gradW);
    const double p = prior_.evaluate(z, nullptr, gradZ != nullptr ? g.data() : nullptr, nullptr);
    if (gradZ != nullptr)
      for (std::size_t k = 0; k < gradient_; ++k) gradZ[k] += share_ * g[k];
    return f + share_ * p;
  }

 private:
  estimation::PartitionLikelihood partition_;
  estimation::PriorLikelihood prior_;
  double share_;
  std::size_t gradient_;
};

}  // namespace

FitResult runEpFit(const FactorModel& model, const FitOptions& o, const AlgorithmChoice& choice,
                   const RoundCallback& afterRound) {
  const auto started = std::chrono::steady_clock::now();
  const std::size_t d = model.globalDim(), J = model.numPartitions();
  const auto D = static_cast<Eigen::Index>(d);
  const std::vector<double> theta = o.theta.empty() ? std::vector<double>(model.hyperDim(), 0.0) : o.theta;
  const EpFitOptions& e = o.ep;
  FitResult result;
  result.choice = choice;
  result.theta = theta;

  // eta_0: the prior when it is exactly Gaussian; otherwise flat, with a 1/J share of the prior
  // in every partition's term.
  std::vector<std::shared_ptr<const estimation::LocalLikelihood>> sites;
  FullNatural eta0 = FullNatural::flat(D);
  std::optional<GaussianPrior> gaussian = model.gaussianPrior();
  std::string priorWhy;
  if (!gaussian) {
    PriorProbeResult probe = probeGaussianPrior(model, theta);
    gaussian = probe.prior;
    priorWhy = probe.reason;
  }
  if (gaussian) {
    FullStandard p{Eigen::Map<const Eigen::VectorXd>(gaussian->mean.data(), D), Eigen::MatrixXd()};
    p.S = gaussian->covariance.empty()
              ? Eigen::MatrixXd(Eigen::Map<const Eigen::VectorXd>(gaussian->variances.data(), D).asDiagonal())
              : Eigen::MatrixXd(Eigen::Map<const Eigen::MatrixXd>(gaussian->covariance.data(), D, D));
    eta0 = toNatural(p);
    result.prior = "exact Gaussian prior, held by the server as eta_0";
    for (std::size_t j = 0; j < J; ++j)
      sites.push_back(std::make_shared<estimation::PartitionLikelihood>(model, j, theta));
  } else {
    result.prior = "the prior is not Gaussian (" + priorWhy + "): each of the " + std::to_string(J) +
                   " sites' tilted distributions holds 1/" + std::to_string(J) + " of it";
    for (std::size_t j = 0; j < J; ++j) sites.push_back(std::make_shared<PartitionWithPriorShare>(model, j, theta));
  }
  algorithms::ep::TiltedSamplerOptions to;
  to.adaptTransitions = e.adaptTransitions;
  to.readaptEvery = e.readaptEvery;
  to.seed = o.seed;
  algorithms::ep::SampledSites sampled(sites, choice.samples, to);
  sampled.setUnbiasedNatural(choice.algorithm == Algorithm::Ep);
  // The warm-up's moments: each site's least noisy estimator so far (SampledSites.hpp).
  sampled.setMomentEstimator(algorithms::ep::MomentEstimator::LeastNoisy);

  // The start: theta = the prior. A prior that is not Gaussian is replaced by the Gaussian with
  // its moments (from draws of a chain on the prior alone; N(0, I) when they cannot be had), split
  // evenly among the sites.
  std::vector<FullNatural> start(sites.size(), FullNatural::flat(D));
  if (!gaussian) {
    FullStandard p{Eigen::VectorXd::Zero(D), Eigen::MatrixXd::Identity(D, D)};
    result.start = "theta at N(0, I) (the prior's moments could not be had), split evenly among the sites";
    try {
      const std::size_t n = std::max<std::size_t>(1000, 20 * (d + 1));
      algorithms::ep::TiltedSamplerOptions po;
      po.seed = support::deriveSeed(o.seed, 0x7072696fULL);
      algorithms::ep::TiltedSampler priorChain(std::make_shared<estimation::PriorLikelihood>(model, theta), po);
      const Eigen::MatrixXd z = priorChain.draw(FullNatural::flat(D), 1.0, Eigen::VectorXd::Ones(D), n, nullptr);
      const Eigen::VectorXd m = z.rowwise().mean();
      const Eigen::MatrixXd c = z.colwise() - m;
      const FullStandard moments{m, c * c.transpose() / static_cast<double>(n - 1)};
      if (checkDistribution(moments).ok() && moments.m.allFinite()) {
        p = moments;
        result.start = "theta at the prior's moments (" + std::to_string(n) +
                       " draws of a chain on the prior), split evenly among the sites";
      }
    } catch (const samplers::SamplerError&) {
    }
    const FullNatural share = (1.0 / static_cast<double>(J)) * toNatural(p);
    for (FullNatural& s : start) s = share;
  } else {
    result.start = "theta at the prior, every site flat";
  }

  algorithms::ep::EpOptions<FullGaussian> eo;
  eo.variant = variantOf(choice.algorithm);
  eo.step = choice.step;
  eo.startStep = choice.startStep;
  eo.decayIterations = choice.warmup;
  eo.halvingIterations = choice.warmup;  // after it, the halvings' bias would stay in the average
  eo.beta = e.power;
  if (eo.variant != algorithms::ep::Variant::Ep) {  // plain EP's damping is its own business
    eo.startMargin = kEpStartMargin;
    eo.backoffMargin = kEpBackoffMargin;
    eo.backoffIterations = choice.rounds / 2;  // not into the average
  }
  eo.iterations = choice.rounds;
  eo.inner = e.inner;
  eo.siteName = [&](std::size_t j) { return "partition " + model.partitionLabel(j) + "'s site"; };
  eo.threads = support::threadsFor(o.threads);
  const bool reference = e.referenceMean.size() == D && e.referenceCovariance.rows() == D;
  const FullStandard referenceQ{e.referenceMean, e.referenceCovariance};

  // The averages: q over the second half of the iterations, and over its third and fourth
  // quarters for the verdict; every site's natural parameters over the second half, for the
  // cavities its locals are drawn from.
  const std::size_t n = choice.rounds, half = n / 2, threeQuarters = (3 * n) / 4;
  algorithms::ep::EpAverage third(D, half, threeQuarters), fourth(D, threeQuarters, n);
  std::vector<FullNatural> siteSums(sites.size(), FullNatural::flat(D));
  std::size_t siteCount = 0;
  FullNatural previous = eta0;
  for (const FullNatural& s : start) previous += s;
  sampled.setApproximation(toStandard(previous), e.restart);
  const std::size_t bytesPerMessage = 8 * (d + d * (d + 1) / 2);  // eta1 and eta2's lower triangle
  support::CommunicationCounters counters;
  std::size_t rejectedAtThreeQuarters = 0, skippedAtThreeQuarters = 0, divergencesAtHalf = 0;
  eo.afterIteration = [&](std::size_t it, const algorithms::ep::EpResult<FullGaussian>& run) {
    const FullNatural& t = run.theta;
    const FullStandard q = toStandard(t);
    sampled.setApproximation(q, e.restart);
    // After the warm-up, Stein's estimator for the sites that are a small part of their tilted
    // distributions and the reference's for the others (SampledSites.hpp): with many sites it
    // removes most of the noise. (Not the least noisy one: its choice follows the draws, and
    // the second half's average would keep that choice's bias.)
    if (it == std::max<std::size_t>(eo.decayIterations, 1))
      sampled.setMomentEstimator(algorithms::ep::MomentEstimator::Adaptive);
    third.add(it, t);
    fourth.add(it, t);
    if (it > half) {
      for (std::size_t i = 0; i < sites.size(); ++i) siteSums[i] += run.sites[i];
      ++siteCount;
    }
    if (it == half) divergencesAtHalf = sampled.divergences();
    if (it == threeQuarters) rejectedAtThreeQuarters = run.rejected, skippedAtThreeQuarters = run.skipped;
    support::TraceRecord rec;
    rec.round = it;
    counters.rounds = it;
    counters.messagesDown += J;  // each partition's site gets theta down and sends its lambda up
    counters.messagesUp += J;
    counters.bytesDown += J * bytesPerMessage;
    counters.bytesUp += J * bytesPerMessage;
    counters.accepted = run.updates - run.rejected;
    counters.rejected = run.rejected;
    counters.serverUpdates = counters.accepted;
    rec.counters = counters;
    const double scale = std::max(1.0, std::max(t.eta1.cwiseAbs().maxCoeff(), t.eta2.cwiseAbs().maxCoeff()));
    rec.maxChange =
        std::max((t.eta1 - previous.eta1).cwiseAbs().maxCoeff(), (t.eta2 - previous.eta2).cwiseAbs().maxCoeff()) /
        scale;
    previous = t;
    rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    rec.metrics["sampler_steps"] = static_cast<double>(sampled.gradientEvaluations());
    rec.metrics["divergences"] = static_cast<double>(sampled.divergences());
    rec.metrics["skipped"] = static_cast<double>(run.skipped);
    rec.metrics["damped_sweeps"] = static_cast<double>(run.damped);
    if (reference) rec.metrics["kl_to_reference"] = kl(q, referenceQ);
    result.trace.push_back(std::move(rec));
    if (afterRound) afterRound(result.trace.back(), choice);
    return false;
  };
  algorithms::ep::EpResult<FullGaussian> r =
      algorithms::ep::runEp<FullGaussian>(eta0, sites.size(), sampled.moments(), eo, start);
  const std::size_t rejectedLastQuarter = r.rejected - rejectedAtThreeQuarters;
  const std::size_t skippedLastQuarter = r.skipped - skippedAtThreeQuarters;

  result.counters = counters;
  result.rounds = r.iterations;
  result.elbo = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  result.stop = StopReason::RoundLimit;
  for (std::string& ev : r.events) result.events.push_back(std::move(ev));

  // The approximation: the second half's average (a single iteration's theta for runs too short
  // to have one).
  const Variant variant = variantOf(choice.algorithm);
  algorithms::ep::EpAverage secondHalf = third;  // (half, n] = the third quarter and the fourth
  secondHalf += fourth;
  const std::optional<FullStandard> averagedQ =
      secondHalf.count() > 0 ? averageOf(secondHalf, variant) : std::optional(toStandard(r.theta));
  const FullStandard q = averagedQ ? *averagedQ : toStandard(r.theta);
  const Validity valid = averagedQ ? checkDistribution(q) : Validity{"its moments lost their precision"};
  if (!valid.ok() || counters.accepted == 0) {
    result.usable = false;
    result.status = counters.accepted == 0
                        ? "the fit failed: no site update was ever applied"
                        : "the fit failed: the averaged approximation is not a distribution (" + valid.reason + ")";
    result.posterior = gaussianPosterior(toStandard(r.theta), std::vector<ConditionalGaussian>{});
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
  }
  // Sites whose cavities stay improper: EP swings instead of settling (a site claims more
  // precision than the rest of the approximation holds), and its locals cannot be drawn.
  const std::size_t lastQuarterUpdates = (n - threeQuarters) * J;
  const auto unsettled = [&](const std::string& what) {
    result.usable = false;
    result.status = "the fit failed: EP did not settle: " + what + "; " + std::to_string(skippedLastQuarter) +
                    " of the " + std::to_string(lastQuarterUpdates) +
                    " site updates of the last quarter were skipped (docs/fitting.md, \"EP\"): try a smaller "
                    "--ep-step (this fit's: " +
                    shortNumber(choice.step) + "), or --algorithm sfvi";
    result.posterior = gaussianPosterior(q, std::vector<ConditionalGaussian>{});
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
  };
  if (lastQuarterUpdates > 0 && 10 * skippedLastQuarter > lastQuarterUpdates)
    return unsettled("more than a tenth of the sites' updates could not be made");
  const FullNatural averaged = toNatural(q);
  std::vector<FullNatural> siteAverages = r.sites;
  if (siteCount > 0)
    for (std::size_t i = 0; i < sites.size(); ++i)
      siteAverages[i] = (1.0 / static_cast<double>(siteCount)) * siteSums[i];

  // Each partition's q(w | z) from draws of its tilted distribution at the averaged sites.
  std::vector<ConditionalGaussian> locals(J);
  std::vector<std::string> localFailures(J);
  const std::size_t workers = std::min<std::size_t>(eo.threads, std::max<std::size_t>(J, 1));
  std::unique_ptr<support::ThreadPool> pool;
  if (workers > 1) pool = std::make_unique<support::ThreadPool>(workers);
  support::forEachIndex(pool.get(), J, [&](std::size_t j) {
    algorithms::ep::TiltedSampler& chain = sampled.sampler(j);
    const std::size_t dw = chain.localDim();
    if (dw == 0) return;
    const std::size_t draws = e.localDraws != 0 ? e.localDraws : std::max<std::size_t>(2000, 20 * (d + dw + 1));
    try {
      const FullNatural cavity = algorithms::ep::tiltedNatural(averaged, siteAverages[j], e.power);
      if (!checkDistribution(cavity).ok()) throw std::domain_error("improper cavity");
      const Eigen::MatrixXd joint = chain.drawJoint(cavity, e.power, q.S.diagonal(), draws, nullptr);
      locals[j] =
          algorithms::ep::conditionalFromDraws(joint, D, static_cast<Eigen::Index>(dw) <= kCorrelatedLocalsMaxDim);
    } catch (const std::exception& ex) {
      localFailures[j] = ex.what();
    }
  });
  for (std::size_t j = 0; j < J; ++j)
    if (localFailures[j] == "improper cavity")
      return unsettled("partition " + model.partitionLabel(j) +
                       "'s cavity at the averaged sites is not a distribution, so its locals cannot be drawn");
  for (std::size_t j = 0; j < J; ++j)
    if (!localFailures[j].empty()) {
      result.usable = false;
      result.status = "the fit failed: partition " + model.partitionLabel(j) +
                      "'s locals could not be estimated from its tilted distribution: " + localFailures[j];
      result.posterior = gaussianPosterior(q, std::vector<ConditionalGaussian>{});
      result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      return result;
    }
  result.posterior = gaussianPosterior(q, locals);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // The verdict: the third and fourth quarters' averages agree, and nothing was rejected or
  // skipped in the last quarter.
  std::vector<std::string> why;
  if (third.count() > 0 && fourth.count() > 0) {
    const std::optional<FullStandard> a = averageOf(third, variant), b = averageOf(fourth, variant);
    if (a && b && checkDistribution(*a).ok() && checkDistribution(*b).ok()) {
      const Drift drift = driftBetween(*a, *b);
      if (drift.mean > kDriftMean)
        why.push_back("the mean of " + globalName(model, drift.meanAt) + " still moves (" + shortNumber(drift.mean) +
                      " sd between the averages of the last two quarters of the iterations)");
      if (drift.sd > kDriftSd)
        why.push_back("the sd of " + globalName(model, drift.sdAt) + " still changes (by " +
                      shortNumber(100.0 * drift.sd) + "% between the last two quarters)");
    } else {
      why.push_back("an average of the last two quarters is not a distribution");
    }
  } else {
    why.push_back("too few iterations (" + std::to_string(n) + ") to judge convergence (at least 4)");
  }
  if (rejectedLastQuarter > 0)
    why.push_back(std::to_string(rejectedLastQuarter) + " update(s) were rejected in the last quarter");
  if (skippedLastQuarter > 0)
    why.push_back(std::to_string(skippedLastQuarter) + " site update(s) were skipped in the last quarter");
  const std::size_t steps = sampled.gradientEvaluations();
  const std::string cost = std::to_string(r.iterations) + " iterations, " + std::to_string(steps) + " sampler steps, " +
                           divergentTransitions(sampled.divergences(), divergencesAtHalf);
  if (why.empty()) {
    result.converged = true;
    result.status = "converged: the last two quarters' averages agree (" + cost + ")";
  } else {
    result.status = "not converged: ";
    for (std::size_t i = 0; i < why.size(); ++i) result.status += (i ? "; " : "") + why[i];
    result.status += " (" + cost + ")";
  }
  return result;
}

}  // namespace pvi
