#pragma once
// Fitting a model end to end: choose the algorithm (AlgorithmChoice.hpp), run it with a callback
// after each round (for progress displays), and return the posterior.
#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/estimation/Estimate.hpp"
#include "runtime/fit/AlgorithmChoice.hpp"
#include "runtime/fit/FitOptions.hpp"
#include "runtime/fit/FittedPosterior.hpp"
#include "runtime/model/CountingModel.hpp"
#include "runtime/model/FactorModel.hpp"
#include "runtime/support/Communication.hpp"
#include "runtime/support/Trace.hpp"

namespace pvi {

// Why a fit stopped.
enum class StopReason {
  RoundLimit,   // the most rounds allowed were run
  Tolerance,    // a round changed q by at most FitOptions::tolerance (relative)
  ElboPlateau,  // the ELBO did not rise by 2 standard errors for FitOptions::patience rounds
  Sampled,      // a sampler drew all its draws (whether they mixed is in FitResult::mixing)
};

// How well a sampler's chains mixed, over every unconstrained parameter (rank-based R-hat and
// ESS are the same on the constrained scale for elementwise transforms). docs/sampling.md.
struct MixingSummary {
  double maxRhat = 0.0;
  double minEssBulk = 0.0, minEssTail = 0.0;
  std::string worstRhat, worstEss;  // the parameters (JointDensity::names) where they occur
  std::size_t divergences = 0, treeDepthHits = 0, draws = 0;
  std::size_t warmupGradients = 0, samplingGradients = 0;
  // The chains plainly did not mix: R-hat above 1.1 somewhere, or a parameter that never moved.
  bool failed = false;
  // Stan's warning thresholds: R-hat > 1.01, ESS < 400 (bulk or tail), or any divergence.
  std::vector<std::string> warnings;
};

struct FitResult {
  AlgorithmChoice choice;
  FittedPosterior posterior;                // Gaussian q(z) with q(w_j) per partition, for PVI
  std::vector<double> theta;                // the fixed hyperparameters used
  std::string prior;                        // how the prior was held (exact, or refined and why)
  std::string start;                        // where q started (the Laplace start's report)
  estimation::Estimate elbo;                // at the end, from FitOptions::elboSamples draws per client
  std::vector<support::TraceRecord> trace;  // per round (freeEnergy filled every round)
  support::CommunicationCounters counters;
  std::vector<std::string> events;  // rejected or halved updates, failures
  std::size_t rounds = 0;
  StopReason stop = StopReason::RoundLimit;
  // Variational fits: stopped by itself, no update rejected in the last round, the ELBO finite and
  // near its best (Convergence.hpp); samplers: the chains mixed.
  bool converged = false;
  // False when the result must not be used: q or the ELBO not finite, every update rejected, or a
  // diverged ELBO (Convergence.hpp). The front ends then report "fit failed" and write nothing.
  bool usable = true;
  std::string status;  // one line: "converged: ...", "not converged: ...", "the fit failed: ..."

  double seconds = 0.0;                 // the rounds (or chains)
  double startSeconds = 0.0;            // finding where q starts (the Laplace start), before the rounds
  double totalSeconds = 0.0;            // all of fitModel
  EvaluationCounts evaluations;         // the model's factors evaluated by the whole fit
  std::optional<MixingSummary> mixing;  // samplers only
};

using RoundCallback = std::function<void(const support::TraceRecord&, const AlgorithmChoice&)>;

// Throws FitConfigurationError (bad options, unimplemented algorithm), samplers::SamplerError (a
// chain that cannot start) and whatever the model throws (ModelEvaluationError). `model` must be
// safe to evaluate from several threads. `afterRound` sees the variational algorithms' rounds,
// `chainProgress` a sampler's chains (from their threads).
FitResult fitModel(const FactorModel& model, const FitOptions& options, const RoundCallback& afterRound = {},
                   const samplers::ProgressCallback& chainProgress = {});

// NUTS over the whole model (FitNuts.cpp), as fitModel runs it for Algorithm::Nuts.
FitResult sampleModel(const FactorModel& model, const FitOptions& options, const AlgorithmChoice& choice,
                      const samplers::ProgressCallback& chainProgress = {});

ModelShape shapeOf(const FactorModel& model);

// SFVI over the partitions as silos (FitSfvi.cpp), as fitModel runs it for Algorithm::Sfvi.
template <class Family>
FitResult runSfviFit(const FactorModel& model, const FitOptions& options, const AlgorithmChoice& choice,
                     const RoundCallback& afterRound);

// EP, EP-eta or EP-mu over the partitions as sites (FitEp.cpp), as fitModel runs them.
FitResult runEpFit(const FactorModel& model, const FitOptions& options, const AlgorithmChoice& choice,
                   const RoundCallback& afterRound);

}  // namespace pvi
