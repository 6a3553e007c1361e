#include "runtime/fit/Fit.hpp"

#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

#include "runtime/algorithms/pvi/LocalOptimiserAdam.hpp"
#include "runtime/federation/Federation.hpp"
#include "runtime/federation/IsotropicStart.hpp"
#include "runtime/federation/LaplaceStart.hpp"
#include "runtime/federation/schedules/Sequential.hpp"
#include "runtime/federation/schedules/Synchronous.hpp"
#include "runtime/fit/Convergence.hpp"
#include "runtime/fit/StoppingRule.hpp"
#include "runtime/model/CompiledModel.hpp"
#include "runtime/model/GaussianPriorProbe.hpp"
#include "runtime/model/WithGaussianPrior.hpp"
#include "runtime/model/WithHyperparameters.hpp"
#include "runtime/optim/Adam.hpp"
#include "runtime/optim/RunningMean.hpp"
#include "runtime/support/Seeds.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi {

namespace {

// The estimation code names a global by its coordinate ("over global coordinate 5"); the message
// a user reads names it ("over the global 'omega' (unconstrained coordinate 5)").
std::string withGlobalNames(std::string out, const FactorModel& model) {
  const std::string coordinate = "over global coordinate ";
  if (const std::size_t hit = out.find(coordinate); hit != std::string::npos) {
    std::size_t end = hit + coordinate.size();
    while (end < out.size() && std::isdigit(static_cast<unsigned char>(out[end]))) ++end;
    if (end > hit + coordinate.size()) {
      const std::size_t k = std::stoul(out.substr(hit + coordinate.size(), end - hit - coordinate.size()));
      const std::vector<std::string> names = model.globalNames();
      if (k >= 1 && k <= names.size())
        out.replace(hit, end - hit,
                    "over the global '" + names[k - 1] + "' (unconstrained coordinate " + std::to_string(k) + ")");
    }
  }
  return out;
}

template <class Family>
FitResult runPvi(const FactorModel& model, const FitOptions& o, const AlgorithmChoice& choice,
                 const RoundCallback& afterRound) {
  algorithms::AdamOptions adam;
  adam.learningRate = o.learningRate;
  adam.finalLearningRateFraction = 0.1;
  adam.averageFrom = 0.5;
  adam.steps = o.localSteps;
  adam.samples = choice.refineSamples > 0 ? choice.refineSamples : o.samples;
  auto optimiser = std::make_shared<algorithms::AdamOptimiser<Family>>(adam);

  federation::FederationOptions<Family> fo;
  fo.localShape = localShapeOf(choice.locals);
  fo.theta = o.theta.empty() ? std::vector<double>(model.hyperDim(), 0.0) : o.theta;
  if (fo.theta.size() != model.hyperDim())
    throw FitConfigurationError("the model has " + std::to_string(model.hyperDim()) + " hyperparameters, but " +
                                std::to_string(fo.theta.size()) + " values were given");
  // Hyperparameters not fixed by the user are learned (empirical Bayes, Appendix A of the PVI
  // paper): the federation sees a model without them (WithHyperparameters), and after every
  // round the M-step below moves theta on E_q[grad_theta log p(y, z, w | theta)], q held fixed.
  const bool learnTheta = o.theta.empty() && model.hyperDim() > 0;
  std::vector<double> theta = fo.theta;
  std::optional<WithHyperparameters> hyper;
  const FactorModel* base = &model;
  if (learnTheta) {
    hyper.emplace(model, theta);
    base = &*hyper;
  }
  // A compiled model cannot declare its prior Gaussian; when the probe finds it exactly Gaussian
  // (for every theta) the server holds it exactly as factor 0 instead of refining it like a client.
  const FactorModel* fitted = base;
  std::optional<WithGaussianPrior> exact;
  std::string prior = "exact Gaussian prior, held by the server as factor 0";
  if (!model.gaussianPrior()) {
    // A mean-field fit can only hold an independent prior: probe for that alone (O(D) memory).
    PriorProbeOptions probeOptions;
    probeOptions.diagonalOnly = choice.family == FamilyKind::MeanField;
    PriorProbeResult probe = probeGaussianPrior(model, fo.theta, probeOptions);
    if (probe.prior) {
      exact.emplace(*base, *probe.prior);
      fitted = &*exact;
    } else {
      prior = "the prior is not Gaussian (" + probe.reason + "): the server refines it as factor 0";
    }
  }
  if (fitted->gaussianPrior() && !federation::exactPriorFactor<Family>(*fitted))
    prior =
        "the Gaussian prior has correlations the mean-field family cannot hold: the server refines it as "
        "factor 0";
  if (learnTheta) fo.theta.clear();  // the model the federation sees has none
  federation::Federation<Family> federation = federation::makeFederation<Family>(*fitted, optimiser, fo);
  const std::size_t threads = support::threadsFor(o.threads);
  federation.setThreads(threads);
  optim::AdamState hyperAdam(static_cast<Eigen::Index>(model.hyperDim()));
  // The M-step after round r: kHyperSteps Adam steps on theta at the current q(z) and q(w_j | z),
  // each from o.samples fresh draws; theta becomes the average of the second half.
  constexpr std::size_t kHyperSteps = 50;
  const auto mStep = [&](std::size_t round) {
    const auto q = toStandard(federation.server().posterior());
    const auto root = reparamRoot(q);
    // The terms at the model's own hyperparameters; each step evaluates them at `at` instead.
    const estimation::PriorLikelihood priorTerm(model, theta);
    std::vector<estimation::PartitionLikelihood> terms;
    terms.reserve(model.numPartitions());
    for (std::size_t j = 0; j < model.numPartitions(); ++j) terms.emplace_back(model, j, theta);
    Eigen::VectorXd t = Eigen::Map<const Eigen::VectorXd>(theta.data(), static_cast<Eigen::Index>(theta.size()));
    optim::RunningMean average;
    for (std::size_t k = 1; k <= kHyperSteps; ++k) {
      const std::vector<double> at(t.data(), t.data() + t.size());
      std::mt19937_64 rng(support::deriveSeed(o.seed, 0x4e7aULL, round, k));
      estimation::EstimationOptions eo{o.samples, false, nullptr, &at};
      Eigen::VectorXd g = estimation::estimateDerivatives<Family>(priorTerm, q.m, root, nullptr, eo, rng).gradTheta;
      for (std::size_t j = 0; j < terms.size(); ++j) {
        const auto& w = federation.client(j + 1).locals();
        g += estimation::estimateDerivatives<Family>(terms[j], q.m, root, w ? &*w : nullptr, eo, rng).gradTheta;
      }
      if (!g.allFinite()) throw std::runtime_error("the gradient over the hyperparameters is not finite");
      optim::adamAscend(hyperAdam, t, g, o.learningRate);
      if (2 * k > kHyperSteps) average.add(t);
    }
    theta.assign(average.mean().data(), average.mean().data() + average.mean().size());
    hyper->setTheta(theta);
  };

  federation::FreeEnergyTracing tracing;
  tracing.every = 1;
  tracing.samples = o.elboSamples;
  tracing.seed = o.seed ^ 0x5eedf00dULL;

  FitResult result;
  result.choice = choice;
  result.theta = theta;
  result.prior = learnTheta ? prior + "; hyperparameters learned as point estimates (empirical Bayes)" : prior;
  result.start = "started from the prior (asked for)";
  const auto startClock = std::chrono::steady_clock::now();
  bool startedAtMode = false;
  if (o.laplaceStart) {
    federation::LaplaceStartOptions lo;
    lo.names = model.globalNames();
    lo.seed = o.seed;
    const federation::LaplaceStartReport start = federation::startAtLaplace(federation, lo);
    result.start = start.summary;
    startedAtMode = start.applied;
    const bool withoutMaximum = start.improper && [&] {
      const std::vector<bool> proper = model.globalsWithProperPrior();
      return start.coordinate < proper.size() && proper[start.coordinate];
    }();
    if (start.improper && !withoutMaximum) {  // no approximation of an improper posterior is a result
      result.usable = false;
      result.status = "the fit failed: " + start.summary;
      result.counters = federation.server().counters();
      return result;
    }
    if (withoutMaximum) {
      // The latent the search names has a proper prior: a density that rises without bound where a
      // scale shrinks to zero (a centred funnel, a collapsing mixture component) is integrable, so
      // this is no evidence of impropriety. The fit goes on from a start that is not the mode; its
      // k-hat judges the result.
      result.start = "no mode to start at (" + start.finding +
                     ", which has a proper prior: a funnel or a collapsing scale, not an improper posterior); " +
                     federation::startAtIsotropic(federation, o.initialSd).summary;
    } else if (!start.applied && shapeOf(model).localDim > 0) {
      result.start = federation::startAtIsotropic(federation, o.initialSd).summary;
    }
  }
  // Where q started at the Laplace approximation (no locals, theta fixed), q is near each client's
  // optimum: a client stops when two windows of 10 steps in a row do not raise its objective beyond
  // its Monte Carlo error (LocalOptimiserAdam.hpp; localSteps is the most it takes), and starts each
  // update where its last solution puts it (Client::setWarmStart). The fixed 300 steps were spent
  // on noise: spambase's whole fit took 191,080 partition gradients, now 40,380 (37,390 with a
  // patience of 3), for the same test NLPD (0.1773; 0.1772) (bench/spambase/whole_run.sh).
  // Elsewhere q starts far from the optimum, where windows of 10 steps gain less than their noise:
  // with locals, stopping early left contraception's global sds at 0.50-0.66 of Stan's. Those
  // clients take every step.
  if (startedAtMode && !learnTheta) {
    algorithms::EarlyStopping early;
    early.window = 10;
    early.patience = 2;
    optimiser->setEarlyStopping(early);
    for (std::size_t k = 1; k <= federation.numClients(); ++k) federation.client(k).setWarmStart(true);
    if (federation.priorRefined()) federation.client(0).setWarmStart(true);  // it stops early too
  }
  result.startSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - startClock).count();
  StoppingRule stopping{o.patience};
  bool plateaued = false;
  // The whole schedule in one call; the observer sees every round as it ends.
  const federation::RoundObserver observer = [&](const support::TraceRecord& rec) {
    result.trace.push_back(rec);
    if (learnTheta) mStep(rec.round);
    if (afterRound) afterRound(rec, choice);
    const auto q = toStandard(federation.server().posterior());
    plateaued = stopping.update(rec, q.m, marginalSds(q));
    return plateaued;
  };
  federation::RunSummary summary;
  const auto shared = [&](auto& so) {
    so.damping = choice.damping;
    so.seed = o.seed;
    so.tolerance = o.tolerance;
    so.freeEnergy = tracing;
    so.afterRound = observer;
  };
  if (choice.schedule == ScheduleKind::Sequential) {
    federation::SequentialOptions so;
    so.passes = choice.rounds;
    shared(so);
    summary = federation::runSequential(federation, so);
  } else {
    federation::SynchronousOptions so;
    so.rounds = choice.rounds;
    so.threads = threads;
    shared(so);
    summary = federation::runSynchronous(federation, so);
  }
  result.rounds = summary.rounds;
  result.seconds = summary.seconds;
  result.stop = summary.converged ? StopReason::Tolerance
                : plateaued       ? StopReason::ElboPlateau
                                  : StopReason::RoundLimit;

  result.theta = theta;  // learned, or as given
  std::vector<ConditionalGaussian> locals;
  for (std::size_t k = 1; k <= federation.numClients(); ++k) {
    const auto& w = federation.client(k).locals();
    locals.push_back(w ? *w : ConditionalGaussian{});
  }
  result.posterior = gaussianPosterior(toStandard(federation.server().posterior()), locals);
  result.counters = federation.server().counters();
  for (const std::string& e : federation.server().trace().events()) result.events.push_back(withGlobalNames(e, model));
  settleVerdict(result, choice.rounds);
  return result;
}

}  // namespace

ModelShape shapeOf(const FactorModel& model) {
  ModelShape s;
  s.globalDim = model.globalDim();
  s.hyperDim = model.hyperDim();
  s.partitions = model.numPartitions();
  for (std::size_t j = 0; j < s.partitions; ++j) {
    s.localDim += model.localDim(j);
    s.maxLocalDim = std::max(s.maxLocalDim, model.localDim(j));
  }
  return s;
}

namespace {

FitResult fitCounted(const FactorModel& model, const FitOptions& options, const RoundCallback& afterRound,
                     const samplers::ProgressCallback& chainProgress) {
  const AlgorithmChoice choice = chooseAlgorithm(shapeOf(model), options);
  if (choice.algorithm == Algorithm::Nuts) return sampleModel(model, options, choice, chainProgress);
  try {
    if (choice.algorithm == Algorithm::Ep || choice.algorithm == Algorithm::EpEta ||
        choice.algorithm == Algorithm::EpMu)
      return runEpFit(model, options, choice, afterRound);
    if (choice.algorithm == Algorithm::Sfvi || choice.algorithm == Algorithm::SfviAvg) {
      if (choice.family == FamilyKind::Full) return runSfviFit<FullGaussian>(model, options, choice, afterRound);
      return runSfviFit<MeanFieldGaussian>(model, options, choice, afterRound);
    }
    if (choice.family == FamilyKind::Full) return runPvi<FullGaussian>(model, options, choice, afterRound);
    return runPvi<MeanFieldGaussian>(model, options, choice, afterRound);
  } catch (const ModelEvaluationError& e) {  // a failure names the global by name
    throw ModelEvaluationError(withGlobalNames(e.what(), model));
  } catch (const samplers::SamplerError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(withGlobalNames(e.what(), model));
  }
}

}  // namespace

FitResult fitModel(const FactorModel& model, const FitOptions& options, const RoundCallback& afterRound,
                   const samplers::ProgressCallback& chainProgress) {
  if (model.globalDim() == 0) throw FitConfigurationError("the model has no global latents to fit");
  const auto t0 = std::chrono::steady_clock::now();
  const CountingModel counted(model);
  FitResult result = fitCounted(counted, options, afterRound, chainProgress);
  result.evaluations = counted.counts();
  result.totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace pvi
