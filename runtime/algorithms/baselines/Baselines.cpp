#include "runtime/algorithms/baselines/Baselines.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pvi::algorithms {
namespace {

template <class Family>
void requireFreshExactPrior(federation::Federation<Family>& federation, const char* who) {
  if (federation.priorRefined()) throw std::invalid_argument(std::string(who) + ": needs an exact prior");
  for (std::size_t k = 1; k <= federation.numClients(); ++k)
    if (maxAbs(federation.server().factor(k)) != 0.0)
      throw std::invalid_argument(std::string(who) + ": needs a fresh federation (flat client factors)");
}

template <class Family>
federation::RunSummary oneSynchronousRound(federation::Federation<Family>& federation, std::size_t threads,
                                           std::uint64_t seed) {
  federation::SynchronousOptions o;
  o.rounds = 1;
  o.damping = 1.0;
  o.threads = threads;
  o.seed = seed;
  return federation::runSynchronous(federation, o);
}

}  // namespace

std::vector<double> partitionWeights(const std::vector<std::size_t>& sizes) {
  const double total = static_cast<double>(std::accumulate(sizes.begin(), sizes.end(), std::size_t{0}));
  if (total == 0.0) throw std::invalid_argument("partitionWeights: no data");
  std::vector<double> w;
  for (std::size_t n : sizes) w.push_back(static_cast<double>(n) / total);
  return w;
}

template <class Family>
federation::RunSummary runBcmSame(federation::Federation<Family>& federation, std::size_t threads, std::uint64_t seed) {
  requireFreshExactPrior(federation, "runBcmSame");
  const typename Family::Natural prior = federation.server().factor(0);
  for (std::size_t k = 1; k <= federation.numClients(); ++k)
    federation.client(k).setCavityMode(federation::CavityMode::Fixed, prior);
  return oneSynchronousRound(federation, threads, seed);
}

template <class Family>
federation::RunSummary runBcmSplit(federation::Federation<Family>& federation, const std::vector<double>& weights,
                                   std::size_t threads, std::uint64_t seed) {
  requireFreshExactPrior(federation, "runBcmSplit");
  if (weights.size() != federation.numClients()) throw std::invalid_argument("runBcmSplit: one weight per client");
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  if (std::abs(sum - 1.0) > 1e-12) throw std::invalid_argument("runBcmSplit: weights must sum to 1");
  const typename Family::Natural prior = federation.server().factor(0);
  for (std::size_t k = 1; k <= federation.numClients(); ++k) {
    if (!(weights[k - 1] > 0.0)) throw std::invalid_argument("runBcmSplit: weights must be > 0");
    federation.client(k).setCavityMode(federation::CavityMode::Fixed, weights[k - 1] * prior);
  }
  return oneSynchronousRound(federation, threads, seed);
}

template <class Family>
federation::RunSummary runVcl(federation::Federation<Family>& federation, std::uint64_t seed) {
  requireFreshExactPrior(federation, "runVcl");
  federation::SequentialOptions o;
  o.passes = 1;
  o.damping = 1.0;
  o.seed = seed;
  return federation::runSequential(federation, o);
}

template <class Family>
federation::RunSummary runStreamingVB(federation::Federation<Family>& federation, std::size_t passes,
                                      std::uint64_t seed) {
  requireFreshExactPrior(federation, "runStreamingVB");
  for (std::size_t k = 1; k <= federation.numClients(); ++k)
    federation.client(k).setCavityMode(federation::CavityMode::NoDeletion);
  federation::SequentialOptions o;
  o.passes = passes;
  o.damping = 1.0;
  o.seed = seed;
  return federation::runSequential(federation, o);
}

#define PVI_INSTANTIATE_BASELINES(F)                                                                                  \
  template federation::RunSummary runBcmSame<F>(federation::Federation<F>&, std::size_t, std::uint64_t);              \
  template federation::RunSummary runBcmSplit<F>(federation::Federation<F>&, const std::vector<double>&, std::size_t, \
                                                 std::uint64_t);                                                      \
  template federation::RunSummary runVcl<F>(federation::Federation<F>&, std::uint64_t);                               \
  template federation::RunSummary runStreamingVB<F>(federation::Federation<F>&, std::size_t, std::uint64_t);
PVI_INSTANTIATE_BASELINES(FullGaussian)
PVI_INSTANTIATE_BASELINES(MeanFieldGaussian)
#undef PVI_INSTANTIATE_BASELINES

}  // namespace pvi::algorithms
