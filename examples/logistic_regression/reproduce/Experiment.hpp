#pragma once
// One method of the PVI paper's Section 5.1 comparison on one client split, scored on the test
// set after every communication round (the runtime does the inference; this file only drives it
// round by round and scores q with Predictive.hpp).
//
//   Global VI        runGlobalVI (natural-gradient steps on all the data, no communication);
//                    "rounds" are its iterations.
//   Sequential PVI   runSequential, damping sequentialDamping, one pass (M messages up) per round.
//   Synchronous PVI  runSynchronous, damping synchronousDamping, clients in parallel.
//   BCM same/split   one round (runBcmSame / runBcmSplit with weights N_k / N).
//   VCL              one sequential pass without revisits (runVcl).
//   Streaming VB     `rounds` sequential passes without the deletion step (runStreamingVB).
// Every federated method uses the same local optimiser (Adam, options.adam) and a fresh
// federation. The model must declare an exact Gaussian prior (FactorModel::gaussianPrior):
// global VI and the baselines need it, and PVI then holds it exactly as factor 0.
// Schedules continue their round numbering across calls, so running them one round at a time
// draws exactly the random numbers of one long run.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "Predictive.hpp"
#include "runtime/algorithms/baselines/GlobalVI.hpp"
#include "runtime/algorithms/pvi/LocalOptimiserAdam.hpp"
#include "runtime/model/FactorModel.hpp"

namespace spam {

enum class Method { GlobalVI, SequentialPVI, SynchronousPVI, BcmSame, BcmSplit, Vcl, StreamingVB };
inline constexpr Method kAllMethods[] = {Method::GlobalVI,   Method::SequentialPVI, Method::SynchronousPVI,
                                         Method::BcmSame,    Method::BcmSplit,      Method::Vcl,
                                         Method::StreamingVB};
std::string methodName(Method m);

struct TestSet {
  Eigen::MatrixXd X;  // without the intercept column
  Eigen::VectorXd y;
};

struct ExperimentOptions {
  std::size_t rounds = 10;          // PVI rounds / passes, streaming VB passes
  double synchronousDamping = 0.2;  // rho, as in the paper
  double sequentialDamping = 1.0;
  pvi::algorithms::AdamOptions adam;  // every client update of every federated method
  pvi::algorithms::GlobalVIOptions globalVI;
  std::size_t threads = 2;  // synchronous PVI and BCM
  std::uint64_t seed = 1;
  std::size_t elboSamples = 1000;  // for the final q's ELBO (0: skip)
};

struct RoundRecord {
  Method method{};
  std::size_t round = 0;  // 0: the prior (before any communication)
  TestScore score;
  std::size_t messages = 0, bytes = 0;     // cumulative, up and down
  std::size_t rejected = 0, halvings = 0;  // the server's validity guard, cumulative
  // The global free energy (ELBO) of q and its Monte Carlo standard error: final records only
  // (NaN otherwise). Every method's is estimated from the same draws (common random numbers),
  // so differences between methods are estimated more precisely than the standard errors suggest.
  double elbo = std::numeric_limits<double>::quiet_NaN();
  double elboStandardError = std::numeric_limits<double>::quiet_NaN();
};

// Runs `method` on `model` (partition sizes N_k for BCM split) and returns one record per round,
// starting with round 0; onRound sees each record as it is made. Family: pvi::MeanFieldGaussian
// or pvi::FullGaussian.
template <class Family>
std::vector<RoundRecord> runMethod(Method method, const pvi::FactorModel& model, const std::vector<std::size_t>& sizes,
                                   const TestSet& test, const ExperimentOptions& options,
                                   const std::function<void(const RoundRecord&)>& onRound = {});

// The first round from which `records`' accuracy stays at least target - tolerance ("reaches
// global VI's accuracy within 0.5 points": being more accurate than global VI is not a shortfall;
// a method that only passes through the band does not count); -1 if never.
long roundReaching(const std::vector<RoundRecord>& records, double target, double tolerance);

}  // namespace spam
