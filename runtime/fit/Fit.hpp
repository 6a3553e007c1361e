#pragma once
// Fitting a model end to end: choose the algorithm (AlgorithmChoice.hpp), run it round by round
// with a callback after each round (for progress displays), and return the approximation.
#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "runtime/fit/AlgorithmChoice.hpp"
#include "runtime/fit/FitOptions.hpp"
#include "runtime/model/FactorModel.hpp"
#include "runtime/pvi/Client.hpp"
#include "runtime/pvi/Communication.hpp"
#include "runtime/pvi/Trace.hpp"

namespace pvi {

// One partition's private approximation q(w_j) = N(mean, diag(sd^2)) over its unconstrained
// locals. In a federated deployment it stays with its partition.
struct LocalPosterior {
  Eigen::VectorXd mean;
  Eigen::VectorXd sd;
};

struct FitResult {
  AlgorithmChoice choice;
  Eigen::VectorXd mean;          // q(z) over the unconstrained globals
  Eigen::MatrixXd covariance;    // (diagonal for the mean-field family)
  std::vector<double> theta;     // the fixed hyperparameters used
  std::string prior;             // how the prior was held (exact, or refined and why)
  std::vector<LocalPosterior> locals;  // per partition (empty entries without locals)
  Estimate elbo;                 // at the end, from FitOptions::elboSamples draws per client
  std::vector<TraceRecord> trace;      // per round (freeEnergy filled every round)
  CommunicationCounters counters;
  std::vector<std::string> events;     // rejected or halved updates, failures
  std::size_t rounds = 0;
  bool converged = false;        // stopped because a round changed q by at most the tolerance
  double seconds = 0.0;
};

using RoundCallback = std::function<void(const TraceRecord&, const AlgorithmChoice&)>;

// Throws FitConfigurationError (bad options, unimplemented algorithm) and whatever the model
// throws (ModelEvaluationError). `model` must be safe to evaluate from several threads.
FitResult fitModel(const FactorModel& model, const FitOptions& options, const RoundCallback& afterRound = {});

ModelShape shapeOf(const FactorModel& model);

}  // namespace pvi
