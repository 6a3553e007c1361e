#pragma once
// What the three PVI schedules (Sequential.hpp, Synchronous.hpp, Asynchronous.hpp) share: the
// per-round bookkeeping and the summary they return.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "runtime/pvi/Federation.hpp"

namespace pvi {

// Evaluate the global free energy (Federation::freeEnergy) into the trace every `every` rounds
// (0: never), from `samples` draws per client; round r uses deriveSeed(seed, r).
struct FreeEnergyTracing {
  std::size_t every = 0;
  std::size_t samples = 64;
  std::uint64_t seed = 1;
};

struct RunSummary {
  std::size_t rounds = 0;      // rounds completed by this call
  bool converged = false;      // stopped because a round's max relative change <= tolerance
  double seconds = 0.0;
};

namespace detail {

// Ends round `round` (1-based, counting this run's rounds): bumps counters.rounds, evaluates the
// free energy if due, appends a TraceRecord. Returns the round's max relative change.
template <class Family>
double endRound(Federation<Family>& federation, std::size_t round, const FreeEnergyTracing& tracing,
                std::chrono::steady_clock::time_point start);

}  // namespace detail
}  // namespace pvi
