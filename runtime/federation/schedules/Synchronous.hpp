#pragma once
// Synchronous PVI (Ashman et al. 2022, "Partitioned Variational Inference", Section 2.4.2): every round the server
// sends the same eta_q to all participants, they compute their updates concurrently on a ThreadPool of `threads`
// std::threads, and the server applies all deltas together (atomically, with its validity guard; the deltas are summed
// in factor order, so the result does not depend on thread timing). Damping rho is usually needed (the paper suggests
// rho proportional to 1/M).
//
// Random streams: each client update draws from deriveSeed(seed, round, factorIndex), or, with
// commonRandomNumbers, every participant of round r uses roundSeed(seed, r) -- the same draws the
// global VI routine (GlobalVI.hpp) uses at its iteration r, which Property 3.1's test needs.
#include <cstddef>
#include <cstdint>

#include "runtime/federation/schedules/Schedule.hpp"

namespace pvi::federation {

struct SynchronousOptions {
  std::size_t rounds = 10;
  double damping = 1.0;  // rho
  std::size_t threads = 2;
  bool commonRandomNumbers = false;
  std::uint64_t seed = 1;
  double tolerance = 0.0;  // stop after a round whose max relative change <= this (0: never)
  FreeEnergyTracing freeEnergy;
  RoundObserver afterRound;  // after every round; returning true stops the schedule
};

template <class Family>
RunSummary runSynchronous(Federation<Family>& federation, const SynchronousOptions& options);

}  // namespace pvi::federation
