#include "runtime/fit/Fit.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "runtime/model/WithGaussianPrior.hpp"
#include "runtime/pvi/GaussianPriorProbe.hpp"
#include "runtime/pvi/Pvi.hpp"

namespace pvi {

namespace {

Eigen::MatrixXd covarianceOf(const FullStandard& q) { return q.S; }
Eigen::MatrixXd covarianceOf(const MeanFieldStandard& q) { return q.var.asDiagonal(); }

// The ELBO stopped rising: `patience` rounds without beating the best by 2 standard errors.
struct ElboPlateau {
  std::size_t patience;
  double best = -std::numeric_limits<double>::infinity();
  std::size_t since = 0;
  bool update(const TraceRecord& r) {
    if (patience == 0 || !std::isfinite(r.freeEnergy)) return false;
    const double se = std::isfinite(r.freeEnergyStandardError) ? r.freeEnergyStandardError : 0.0;
    if (r.freeEnergy > best + 2.0 * se) {
      best = std::max(best, r.freeEnergy);
      since = 0;
      return false;
    }
    best = std::max(best, r.freeEnergy);
    return ++since >= patience;
  }
};

template <class Family>
FitResult runPvi(const FactorModel& model, const FitOptions& o, const AlgorithmChoice& choice,
                 const RoundCallback& afterRound) {
  AdamOptions adam;
  adam.learningRate = o.learningRate;
  adam.finalLearningRateFraction = 0.1;
  adam.steps = o.localSteps;
  adam.samples = o.samples;
  auto optimiser = std::make_shared<AdamOptimiser<Family>>(adam);

  FederationOptions<Family> fo;
  fo.theta = o.theta.empty() ? std::vector<double>(model.hyperDim(), 0.0) : o.theta;
  if (fo.theta.size() != model.hyperDim())
    throw FitConfigurationError("the model has " + std::to_string(model.hyperDim()) + " hyperparameters, but " +
                                std::to_string(fo.theta.size()) + " values were given");
  // A compiled model cannot declare its prior Gaussian; when the probe finds it exactly Gaussian
  // the server holds it exactly as factor 0 instead of refining it like a client.
  const FactorModel* fitted = &model;
  std::optional<WithGaussianPrior> exact;
  std::string prior = "exact Gaussian prior, held by the server as factor 0";
  if (!model.gaussianPrior()) {
    PriorProbeResult probe = probeGaussianPrior(model, fo.theta);
    if (probe.prior) {
      exact.emplace(model, *probe.prior);
      fitted = &*exact;
    } else {
      prior = "the prior is not Gaussian (" + probe.reason + "): the server refines it as factor 0";
    }
  }
  if (fitted->gaussianPrior() && !exactPriorFactor<Family>(*fitted))
    prior = "the Gaussian prior has correlations the mean-field family cannot hold: the server refines it as "
            "factor 0";
  Federation<Family> federation = makeFederation<Family>(*fitted, optimiser, fo);

  const std::size_t threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  FreeEnergyTracing tracing;
  tracing.every = 1;
  tracing.samples = o.elboSamples;
  tracing.seed = o.seed ^ 0x5eedf00dULL;

  FitResult result;
  result.choice = choice;
  result.theta = fo.theta;
  result.prior = prior;
  ElboPlateau plateau{o.patience};
  const auto start = std::chrono::steady_clock::now();
  // One round per call, so the caller sees every round; rounds continue the server's numbering,
  // so the random streams are those of one long run.
  for (std::size_t r = 0; r < choice.rounds; ++r) {
    RunSummary s;
    if (choice.schedule == "sequential") {
      SequentialOptions so;
      so.passes = 1;
      so.damping = choice.damping;
      so.seed = o.seed;
      so.tolerance = o.tolerance;
      so.freeEnergy = tracing;
      s = runSequential(federation, so);
    } else {
      SynchronousOptions so;
      so.rounds = 1;
      so.damping = choice.damping;
      so.threads = threads;
      so.seed = o.seed;
      so.tolerance = o.tolerance;
      so.freeEnergy = tracing;
      s = runSynchronous(federation, so);
    }
    ++result.rounds;
    TraceRecord rec = federation.server().trace().records().back();
    rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.trace.push_back(rec);
    if (afterRound) afterRound(rec, choice);
    if (s.converged || plateau.update(rec)) {
      result.converged = true;
      break;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const auto q = toStandard(federation.server().posterior());
  result.mean = q.m;
  result.covariance = covarianceOf(q);
  for (std::size_t k = 1; k <= federation.numClients(); ++k) {
    LocalPosterior lp;
    if (const auto& w = federation.client(k).locals()) {
      lp.mean = w->m;
      lp.sd = w->var.cwiseSqrt();
    }
    result.locals.push_back(std::move(lp));
  }
  result.elbo = result.trace.empty() ? Estimate{} : Estimate{result.trace.back().freeEnergy,
                                                             result.trace.back().freeEnergyStandardError};
  result.counters = federation.server().counters();
  result.events = federation.server().trace().events();
  return result;
}

}  // namespace

ModelShape shapeOf(const FactorModel& model) {
  ModelShape s;
  s.globalDim = model.globalDim();
  s.hyperDim = model.hyperDim();
  s.partitions = model.numPartitions();
  for (std::size_t j = 0; j < s.partitions; ++j) s.localDim += model.localDim(j);
  return s;
}

FitResult fitModel(const FactorModel& model, const FitOptions& options, const RoundCallback& afterRound) {
  if (model.numPartitions() == 0)
    throw FitConfigurationError("the model has no partitions to fit: give data for at least one partition");
  if (model.globalDim() == 0) throw FitConfigurationError("the model has no global latents to fit");
  const AlgorithmChoice choice = chooseAlgorithm(shapeOf(model), options);
  if (choice.family == "full") return runPvi<FullGaussian>(model, options, choice, afterRound);
  return runPvi<MeanFieldGaussian>(model, options, choice, afterRound);
}

}  // namespace pvi
