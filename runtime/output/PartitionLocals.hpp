#pragma once
// One partition's local latents, written to that partition's own directory only:
//   <outDir>/<label>/locals.csv           draws (comment header, column header, one row per draw)
//   <outDir>/<label>/locals_summary.json  mean, sd, 5%, 50%, 95% of every column
// The caller passes one partition at a time; nothing of another partition is read or written.
// locals.csv reads back with readStanCsv (it has no lp__ columns and no mean row).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runtime/output/Results.hpp"
#include "runtime/output/Summary.hpp"

namespace pvi::output {

struct PartitionLocals {
  std::string label;  // the partition's label: one file name (runtime/data/PartitionLabel.hpp)
  DrawsTable draws;   // local latents (the first numParameters columns), then partition-level
                      // generated quantities; constrained space
  std::vector<std::optional<AnalyticMoments>> analytic;  // empty, or one per column
};

// Throws std::invalid_argument for a label that is not a single path component, OutputError when
// the files cannot be written. Returns the two paths written.
std::vector<std::filesystem::path> writePartitionLocals(const std::filesystem::path& outDir, const RunInfo& run,
                                                        const PartitionLocals& locals);

}  // namespace pvi::output
