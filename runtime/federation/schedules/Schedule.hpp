#pragma once
// What the three PVI schedules (Sequential.hpp, Synchronous.hpp, Asynchronous.hpp) share: the
// per-round bookkeeping and the summary they return.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "runtime/federation/Federation.hpp"

namespace pvi::federation {

// Evaluate the global free energy (Federation::freeEnergy) into the trace every `every` rounds
// of the server (0: never; rounds counted by the server, so runs that continue a federation keep
// the rhythm), from `samples` draws per client; round r uses deriveSeed(seed, r).
struct FreeEnergyTracing {
  std::size_t every = 0;
  std::size_t samples = 64;
  std::uint64_t seed = 1;
};

// Called after every round with the round's trace record (already in the server's trace);
// returning true stops the schedule there.
using RoundObserver = std::function<bool(const support::TraceRecord&)>;

struct RunSummary {
  std::size_t rounds = 0;  // rounds completed by this call
  bool converged = false;  // stopped because a round's max relative change <= tolerance
  bool stoppedByObserver = false;
  double seconds = 0.0;
};

namespace detail {

// Ends a round: bumps counters.rounds, evaluates the free energy if due, appends a TraceRecord
// (seconds since `start`) and returns it.
template <class Family>
support::TraceRecord endRound(Federation<Family>& federation, const FreeEnergyTracing& tracing,
                              std::chrono::steady_clock::time_point start);

// What a schedule does after each round: updates `summary` and says whether to stop (a change
// at most `tolerance` > 0, or the observer asked to).
bool finishRound(const support::TraceRecord& record, double tolerance, const RoundObserver& observer,
                 RunSummary& summary);

}  // namespace detail
}  // namespace pvi::federation
