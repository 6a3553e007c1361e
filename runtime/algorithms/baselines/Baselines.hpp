#pragma once
// The baselines of Section 5 (Ashman et al. 2022, "Partitioned Variational Inference") other than global VI
// (GlobalVI.hpp), as special cases of the PVI machinery. Each runs on a fresh federation (all client factors flat)
// whose prior is exact (not refined), and leaves its answer in federation.server().posterior().
//
//   BCM (same)   every client fits q_m ~ p(z) p(y_m | z) independently (cavity fixed to the
//                prior), once, in parallel; q = prod_m q_m / p^(M-1). One synchronous round with
//                damping 1 and CavityMode::Fixed(eta_0).
//   BCM (split)  client m uses the prior p^(w_m), w_m = N_m / N (given); q = prod_m q_m.
//                CavityMode::Fixed(w_m eta_0); the weights must sum to 1.
//   VCL          one sequential pass with damping 1: each client does VI with the previous
//                posterior as its prior (eq. 5), = sequential PVI for a single pass.
//   Streaming VB sequential passes without the deletion step (CavityMode::NoDeletion): revisiting
//                a client counts its data again, the over-counting Section 5.1 describes.
// The clients' cavity modes are left as set (BCM, streaming VB); reset them to Deletion before
// running PVI on the same federation.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/federation/schedules/Sequential.hpp"
#include "runtime/federation/schedules/Synchronous.hpp"

namespace pvi::algorithms {

template <class Family>
federation::RunSummary runBcmSame(federation::Federation<Family>& federation, std::size_t threads = 2,
                                  std::uint64_t seed = 1);

template <class Family>
federation::RunSummary runBcmSplit(federation::Federation<Family>& federation, const std::vector<double>& weights,
                                   std::size_t threads = 2, std::uint64_t seed = 1);

template <class Family>
federation::RunSummary runVcl(federation::Federation<Family>& federation, std::uint64_t seed = 1);

template <class Family>
federation::RunSummary runStreamingVB(federation::Federation<Family>& federation, std::size_t passes,
                                      std::uint64_t seed = 1);

// N_m / N from the partition sizes.
std::vector<double> partitionWeights(const std::vector<std::size_t>& sizes);

}  // namespace pvi::algorithms
