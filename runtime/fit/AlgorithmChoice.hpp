#pragma once
// `--algorithm auto` and the checks of an explicit choice: which algorithm, schedule, family,
// number of rounds and damping a fit uses, and one line saying why (docs/fitting.md has the rule).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "runtime/fit/FitOptions.hpp"
#include "runtime/model/MemoryLimit.hpp"

namespace pvi {

// What the choice depends on.
struct ModelShape {
  std::size_t globalDim = 0;
  std::size_t hyperDim = 0;
  std::size_t partitions = 0;
  std::size_t localDim = 0;     // summed over partitions
  std::size_t maxLocalDim = 0;  // of the partition with the most
};

struct AlgorithmChoice {
  Algorithm algorithm = Algorithm::Pvi;
  ScheduleKind schedule = ScheduleKind::Synchronous;
  FamilyKind family = FamilyKind::Full;
  LocalsKind locals = LocalsKind::Structured;  // of q(w_j | z), for models with local latents
  bool skewedGlobals = false;                  // sfvi: q(z) with a sinh-arcsinh shape per coordinate
  std::size_t innerDraws = 1;                  // sfvi, sfvi-avg: importance-weighted draws of w_j per z
  bool laplaceLocals = false;                  // sfvi, sfvi-avg: ... drawn from each z's Laplace proposal
  std::size_t rounds = 0;
  double damping = 1.0;
  // EP, EP-eta, EP-mu: the step (alpha or eps) and the tilted draws per site update, resolved.
  double step = 0.0;
  double startStep = 0.0;
  std::size_t warmup = 0;  // iterations over which the step falls from startStep to step
  std::size_t samples = 0;
  // SFVI: the most draws per iteration its refinement doubles up to; PVI: its clients' draws per
  // local step (0: neither; FitOptions::refineSamples).
  std::size_t refineSamples = 0;
  std::string reason;  // one line, printed by the front ends
};

// An algorithm the runtime does not implement yet, or options that do not fit together.
class FitConfigurationError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws FitConfigurationError for an algorithm that is not implemented yet or invalid options
// (damping outside (0, 1], zero steps or samples, ...), and for a family whose factors cannot
// fit in `memory` (the fit's D x D matrices of --family full; auto then picks mean-field).
AlgorithmChoice chooseAlgorithm(const ModelShape& shape, const FitOptions& options, const MemoryLimit& memory);
// With memoryLimit().
AlgorithmChoice chooseAlgorithm(const ModelShape& shape, const FitOptions& options);

// The fewest numbers (doubles) a fit with this family holds at once: the server's copy of every
// factor (the prior and one per partition), each client's own copy of its factor, and the
// posterior, D(D + 1) for a full covariance (mean and D x D matrix) and 2D for mean-field
// (mean and variances) each; nullopt when the count overflows.
std::optional<std::uint64_t> familyStateNumbers(FamilyKind family, const ModelShape& shape);

}  // namespace pvi
