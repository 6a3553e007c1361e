#pragma once
// One partition's local latents, written to that partition's own directory only:
//   <outDir>/<label>/locals.csv           draws (comment header, column header, one row per draw)
//   <outDir>/<label>/locals_summary.json  mean, sd, 5%, 50%, 95% of every column
// The caller passes one partition at a time; nothing of another partition is read or written.
// locals.csv reads back with readStanCsv (it has no lp__ columns and no mean row).
//
// For an MCMC run (writePartitionSamplingLocals), one file per chain in CmdStan's sampling layout
// (StanSamplingCsv.hpp), so that rstan's read_stan_csv, CmdStanPy's from_csv and ArviZ read a
// partition's chains on their own:
//   <outDir>/<label>/locals_<id>.csv       chain <id>: the sampler's columns (the chain's, repeated
//                                          from the fit's own file), then the locals
//   <outDir>/<label>/locals_summary.json   statistics over all chains' draws
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runtime/output/Results.hpp"
#include "runtime/output/StanSamplingCsv.hpp"
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

struct PartitionSamplingLocals {
  std::string label;
  // One per chain, in the fit's chain order. draws: this partition's local latents (the first
  // numParameters columns), then its generated quantities. sampler, stepSize, settings and times:
  // the chain's, as in the fit's own file (row i is the same iteration there and here).
  // inverseMetric*: the block of the chain's inverse metric for this partition's locals.
  std::vector<ChainSamples> chains;
  std::vector<std::optional<AnalyticMoments>> analytic;  // empty, or one per column
};

// Writes locals_<id>.csv per chain and locals_summary.json ("chains": the number of chains, "draws":
// the draws of all chains). Throws std::invalid_argument for a bad label, no chains, chains whose
// columns differ, or a chain writeStanSamplingCsv refuses; OutputError when the files cannot be
// written. Returns the paths written, the summary last.
std::vector<std::filesystem::path> writePartitionSamplingLocals(const std::filesystem::path& outDir, const RunInfo& run,
                                                                const PartitionSamplingLocals& locals);

}  // namespace pvi::output
