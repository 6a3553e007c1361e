#pragma once
// The machine-readable summary of a fit (JSON; fields in docs/output.md): what was run, the
// per-column statistics, the ELBO or log-evidence estimate, communication figures, elapsed time
// and the per-round trace. Non-finite numbers (e.g. an ELBO not evaluated) are written as null.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runtime/output/Results.hpp"
#include "runtime/output/Summary.hpp"

namespace pvi::output {

// A sampler's totals over its chains (docs/sampling.md).
struct SamplingTotals {
  std::size_t chains = 0;
  std::size_t drawsPerChain = 0;
  std::size_t warmup = 0;  // iterations per chain
  std::size_t divergences = 0;
  std::size_t treeDepthHits = 0;
  std::size_t warmupGradients = 0;
  std::size_t samplingGradients = 0;
  double maxRhat = kNaN;
  double minEssBulk = kNaN;
  double minEssTail = kNaN;
  bool mixed = false;
  std::vector<std::string> warnings;
};

struct FitResults {
  RunInfo run;
  std::vector<ColumnSummary> summary;  // parameters and generated quantities (summarise())
  double elbo = kNaN;                  // final ELBO (free energy) estimate
  double elboStandardError = kNaN;
  double logEvidence = kNaN;           // when the algorithm estimates it (EP family)
  double paretoKhat = kNaN;            // variational fits: k-hat of the draws' ratios p / q (docs/fitting.md)
  bool importanceResampled = false;    // the draws were resampled by their importance weights
  double importanceEffectiveDraws = kNaN;  // (sum w)^2 / sum w^2 of those weights
  CommunicationTotals communication;   // totals of the whole run
  double elapsedSeconds = kNaN;
  std::vector<TraceRow> trace;
  std::optional<SamplingTotals> sampling;  // samplers only
};

inline constexpr const char* kSummaryFormat = "pvic-summary/1";

std::string summaryJson(const FitResults& results);
void writeSummaryJson(const std::filesystem::path& path, const FitResults& results);

}  // namespace pvi::output
