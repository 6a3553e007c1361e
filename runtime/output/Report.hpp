#pragma once
// The report directory (`--report DIR`): SVG charts and an index.html linking them.
//   elbo.svg              the ELBO against communication rounds (when any round evaluated it)
//   metric-<name>.svg     every other per-round metric against rounds
//   marginal-<name>.svg   each global parameter's marginal: histogram of its draws, with q's
//                         Gaussian density when the caller gives it
//   index.html            the run's description and every chart
// Each file is written atomically (AtomicFile.hpp); DIR is created when missing.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runtime/output/Results.hpp"
#include "runtime/output/Summary.hpp"

namespace pvi::output {

struct MarginalInput {
  std::string name;
  std::vector<double> draws;
  // q's marginal of this column, when it is exactly Gaussian in the column's own space (its
  // transform is the identity); drawn as a density curve.
  std::optional<AnalyticMoments> gaussian;
};

struct ReportInput {
  RunInfo run;
  std::vector<TraceRow> trace;
  std::vector<MarginalInput> marginals;
  std::size_t maxMarginals = 50;  // charts for the first ones only; index.html says how many were left out
};

// The parameter columns of `draws` (not generated quantities), with `analytic` (empty, or one
// entry per column of `draws`) as the Gaussian curves.
std::vector<MarginalInput> marginalsFromDraws(const DrawsTable& draws,
                                              const std::vector<std::optional<AnalyticMoments>>& analytic = {});

// Returns the paths written, index.html last. Throws OutputError when DIR cannot be created or a
// file cannot be written.
std::vector<std::filesystem::path> writeReport(const std::filesystem::path& dir, const ReportInput& input);

}  // namespace pvi::output
