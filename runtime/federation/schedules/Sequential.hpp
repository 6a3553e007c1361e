#pragma once
// Sequential PVI (Ashman et al. 2022, "Partitioned Variational Inference", Section 2.4.1): one factor at a time. The
// server sends eta_q to the client, the client returns Delta_k = rho (eta_q' - eta_q), the server applies it (with its
// validity guard) before the next client starts. With rho = 1 each update sets q to the client's local optimum q'.
//
// A pass visits every participant once (the prior client first when the prior is refined), in
// factor order, in a fresh random order each pass (ClientOrder::Random, a Fisher-Yates shuffle
// from deriveSeed(seed, pass)), or in a given order (factor indices, repeats allowed). A pass is a
// round. Client update seeds: deriveSeed(seed, pass, factorIndex, position in the pass).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/federation/schedules/Schedule.hpp"

namespace pvi::federation {

enum class ClientOrder { Fixed, Random };

struct SequentialOptions {
  std::size_t passes = 10;
  double damping = 1.0;  // rho
  ClientOrder order = ClientOrder::Fixed;
  std::vector<std::size_t> customOrder;  // factor indices visited in each pass; overrides `order`
  std::uint64_t seed = 1;
  double tolerance = 0.0;  // stop after a pass whose max relative change <= this (0: never)
  FreeEnergyTracing freeEnergy;
  RoundObserver afterRound;  // after every round; returning true stops the schedule
};

template <class Family>
RunSummary runSequential(Federation<Family>& federation, const SequentialOptions& options);

}  // namespace pvi::federation
