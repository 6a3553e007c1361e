#pragma once
// Asynchronous PVI (Ashman et al. 2022, "Partitioned Variational Inference", Section 2.4.3): every participant loops on
// "receive eta_q, compute Delta_k, send it"; the server applies each delta when it arrives (with
// its validity guard) and the client immediately starts again from the new eta_q. Because q moves
// while a client computes, its cavity may be stale; damping (and the server's guard) keep q valid.
//
// Two executors:
//   VirtualTime (default, deterministic): a discrete-event simulation. A participant starting at
//     time t with eta_q snapshot finishes at t + latency (from the LinkModel; 1 when none is
//     given); arrivals are processed in time order (ties by start order), so the staleness a real
//     deployment would see is reproduced exactly and reproducibly. Latencies must be > 0.
//   Threads: participants really run concurrently on `threads` std::threads (each participant
//     has at most one update in flight); a finished update is applied under a lock as it arrives.
//     The LinkModel's latency is slept (times secondsPerLatencyUnit) after computing. The result
//     depends on thread timing.
// A dropped update (LinkEvent::dropped) never reaches the server: it is counted and logged, the
// client's factor does not change, and the client starts again (a client that drops out and
// comes back).
//
// The run stops after maxUpdates update attempts (arrived or dropped). A round, for counters and
// traces, is every P attempts, P the number of participants. Update seeds:
// deriveSeed(seed, factorIndex, attempt).
#include <cstddef>
#include <cstdint>

#include "runtime/federation/schedules/Links.hpp"
#include "runtime/federation/schedules/Schedule.hpp"

namespace pvi::federation {

enum class AsyncExecutor { VirtualTime, Threads };

struct AsynchronousOptions {
  std::size_t maxUpdates = 100;
  double damping = 0.5;  // rho
  AsyncExecutor executor = AsyncExecutor::VirtualTime;
  std::size_t threads = 2;
  double secondsPerLatencyUnit = 0.0;  // Threads: real sleep per latency unit
  const LinkModel* links = nullptr;    // null: latency 1, nothing dropped
  std::uint64_t seed = 1;
  FreeEnergyTracing freeEnergy;
  RoundObserver afterRound;  // after every round; returning true stops the schedule
};

template <class Family>
RunSummary runAsynchronous(Federation<Family>& federation, const AsynchronousOptions& options);

}  // namespace pvi::federation
