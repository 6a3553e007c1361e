#pragma once
// The silos of an in-process SFVI or SFVI-Avg run (Silo.hpp), one per partition: their random
// streams, the thread pool they run on, and the ELBO estimate both algorithms take at the end of
// a round. Replies come back in silo order whatever the threads, so sums do not depend on them.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
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

  // xi for silo j: options.localNoise's, or the silo's own stream.
  Eigen::MatrixXd noise(std::uint64_t stream, std::size_t j, Eigen::Index n);
  // fn(j) for every silo, on the pool; an exception names the partition and is rethrown once all
  // have finished.
  void forEach(const std::function<void(std::size_t)>& fn);
  // Every silo's step at q(z) = (m, root) (learningRate 0: evaluate only).
  std::vector<SiloReply<Family>> stepAll(const Eigen::VectorXd& m, const Root& root, const std::vector<double>& theta,
                                         const Eigen::MatrixXd& eps, std::uint64_t stream, double learningRate);
  // The ELBO at the stepper's q(z) and theta from `draws` fresh shared draws: mean and standard
  // error; -inf (and a message in `failure`) when a term is not finite.
  std::pair<double, double> elbo(const GlobalStep<Family>& global, const estimation::LocalLikelihood& prior,
                                 std::size_t round, std::size_t draws, std::string* failure);

 private:
  const FactorModel& model_;
  const SfviOptions<Family>& options_;
  std::vector<std::unique_ptr<SfviSilo<Family>>> silos_;
  std::vector<std::mt19937_64> rngs_;
  std::unique_ptr<support::ThreadPool> pool_;
};

// Shared by the SFVI and SFVI-Avg runs (Sfvi.cpp): numbers in q(z)'s parameters as sent (mean
// and the lower triangle of L, or mean and sds), and the options checked with the starting theta.
std::size_t sentNumbers(const FullStandard& q);
std::size_t sentNumbers(const MeanFieldStandard& q);
template <class Family>
std::vector<double> checkedTheta(const FactorModel& model, const SfviOptions<Family>& options, const char* algorithm);

}  // namespace pvi::algorithms
