#pragma once
// The silos of an in-process SFVI or SFVI-Avg run (Silo.hpp), one per partition: their random
// streams, the thread pool they run on, and the ELBO estimate both algorithms take at the end of
// a round. Replies come back in silo order whatever the threads, so sums do not depend on them.
#include <Eigen/Core>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/algorithms/sfvi/GlobalStep.hpp"
#include "runtime/algorithms/sfvi/Sfvi.hpp"
#include "runtime/algorithms/sfvi/Silo.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi::algorithms {

template <class Family>
class SiloSet {
 public:
  using Root = typename FamilyTraits<Family>::Root;

  // Silo j evaluates partition j of `model` (which must outlive the set) at hyperparameters
  // `theta` when it is given none per call; its q(w_j | z) starts at N(0, I) with options.localShape.
  SiloSet(const FactorModel& model, const SfviOptions<Family>& options, const std::vector<double>& theta);

  std::size_t size() const { return silos_.size(); }
  SfviSilo<Family>& operator[](std::size_t j) { return *silos_[j]; }

  // xi for silo j, n columns per inner draw: options.localNoise's, or the silo's own stream.
  Eigen::MatrixXd noise(std::uint64_t stream, std::size_t j, Eigen::Index n);
  // fn(j) for every silo, on the pool; an exception names the partition and is rethrown once all
  // have finished.
  void forEach(const std::function<void(std::size_t)>& fn);
  // Every silo's step at q(z) = (m, root) (learningRate 0: evaluate only).
  std::vector<SiloReply<Family>> stepAll(const Eigen::VectorXd& m, const Root& root, const std::vector<double>& theta,
                                         const Eigen::MatrixXd& eps, std::uint64_t stream, double learningRate,
                                         bool drawCross = false);
  // Every silo's q(w_j | z) anchored at m (an empty one for a partition without locals).
  std::vector<ConditionalGaussian> conditionals(const Eigen::VectorXd& m) const;

 private:
  const FactorModel& model_;
  const SfviOptions<Family>& options_;
  std::vector<std::unique_ptr<SfviSilo<Family>>> silos_;
  std::vector<std::mt19937_64> rngs_;
  std::unique_ptr<support::ThreadPool> pool_;
};

// Numbers in q(z)'s parameters as sent: mean and the lower triangle of L, or mean and sds.
std::size_t sentNumbers(const FullStandard& q);
std::size_t sentNumbers(const MeanFieldStandard& q);

// What an SFVI or SFVI-Avg run holds from its start to its result (Sfvi.cpp, SfviAvg.cpp): the
// options checked, the silos, the server's prior term and its global step at q(z)'s start, the
// result being built, and the end of each round.
template <class Family>
class SfviRun {
 public:
  using Standard = typename Family::Standard;
  using Clock = std::chrono::steady_clock;

  // Throws std::invalid_argument, naming `algorithm`, for bad options.
  SfviRun(const FactorModel& model, const SfviOptions<Family>& options, const char* algorithm);

  const FactorModel& model;
  const SfviOptions<Family>& options;
  const std::vector<double> theta0;  // the starting (or fixed) hyperparameters
  const Standard start;              // q(z) at the start
  SiloSet<Family> silos;
  const estimation::PriorLikelihood prior;
  GlobalStep<Family> global;  // the server's q(z) and theta
  SfviResult<Family> result;

  // The end of round `round`: the ELBO at global's q(z) and theta from options.elboSamples fresh
  // shared draws (-inf when a term is not finite, logged in result.events), counted in
  // result.counters, as a trace record.
  support::TraceRecord roundRecord(std::size_t round);
  // Keeps the record, with how far q(z)'s mean moved over the round in sds of `before` and the
  // time so far, and asks options.afterRound; true: the run stops.
  bool closeRound(support::TraceRecord record, const Standard& before);
  // The result: global's q(z) and theta, the silos' q(w_j | z), the draws per iteration it ended with.
  SfviResult<Family> finish(std::size_t samples);

 private:
  Clock::time_point t0_ = Clock::now();
};

}  // namespace pvi::algorithms
