#pragma once
// Fitting a model end to end: choose the algorithm (AlgorithmChoice.hpp), run it with a callback
// after each round (for progress displays), and return the posterior.
#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "runtime/estimation/Estimate.hpp"
#include "runtime/fit/AlgorithmChoice.hpp"
#include "runtime/fit/FitOptions.hpp"
#include "runtime/fit/FittedPosterior.hpp"
#include "runtime/model/FactorModel.hpp"
#include "runtime/support/Communication.hpp"
#include "runtime/support/Trace.hpp"

namespace pvi {

// Why a fit stopped.
enum class StopReason {
  RoundLimit,   // the most rounds allowed were run
  Tolerance,    // a round changed q by at most FitOptions::tolerance (relative)
  ElboPlateau,  // the ELBO did not rise by 2 standard errors for FitOptions::patience rounds
};

struct FitResult {
  AlgorithmChoice choice;
  FittedPosterior posterior;                // Gaussian q(z) with q(w_j) per partition, for PVI
  std::vector<double> theta;                // the fixed hyperparameters used
  std::string prior;                        // how the prior was held (exact, or refined and why)
  estimation::Estimate elbo;                // at the end, from FitOptions::elboSamples draws per client
  std::vector<support::TraceRecord> trace;  // per round (freeEnergy filled every round)
  support::CommunicationCounters counters;
  std::vector<std::string> events;  // rejected or halved updates, failures
  std::size_t rounds = 0;
  StopReason stop = StopReason::RoundLimit;
  // Stopped by Tolerance or ElboPlateau rather than by the round limit. (Not a proof of a good
  // fit: rejected updates are in `counters` and `events`.)
  bool converged = false;
  double seconds = 0.0;
};

using RoundCallback = std::function<void(const support::TraceRecord&, const AlgorithmChoice&)>;

// Throws FitConfigurationError (bad options, unimplemented algorithm) and whatever the model
// throws (ModelEvaluationError). `model` must be safe to evaluate from several threads.
FitResult fitModel(const FactorModel& model, const FitOptions& options, const RoundCallback& afterRound = {});

ModelShape shapeOf(const FactorModel& model);

}  // namespace pvi
