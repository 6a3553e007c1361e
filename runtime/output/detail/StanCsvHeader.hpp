#pragma once
// Internal to pvi_output: the pieces of a Stan CSV file that the variational writer
// (StanCsvWriter) and the sampling writer (StanSamplingCsv) share: CmdStan-style nested
// "# key = value" comment lines, pvic's own option keys, column-name checks and number rows.
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/output/Numbers.hpp"
#include "runtime/output/Results.hpp"

namespace pvi::output::detail {

// "#" then 1 + 2 * depth spaces, then "key = value" or the section name (CmdStan's nesting).
// Newlines in keys and values become spaces, so a comment stays one line.
void configLine(std::ostream& os, int depth, const std::string& key, const std::string& value);
void sectionLine(std::ostream& os, int depth, const std::string& name);

// The key under which pvic writes its own option `key`: "pvi_<key>" when `key` is one that
// CmdStan, CmdStanPy's flat configuration dictionary or rstan's read_stan_csv give a meaning to,
// so that pvic's options cannot shadow them; `key` otherwise.
std::string optionKey(const std::string& key);

// The header lines every pvic Stan CSV file starts with: model, start_datetime, pvic_version.
void writeRunLines(std::ostream& os, const RunInfo& run);
// The "pvi" section (at depth 1): pvi_algorithm, then `extra` (keys the writer itself defines,
// written as given), then the run's options (under optionKey).
void writePviSection(std::ostream& os, const RunInfo& run,
                     const std::vector<std::pair<std::string, std::string>>& extra = {});
// The trailing id-free sections: data (one file line per data file), random (seed), output (file).
void writeDataRandomOutput(std::ostream& os, const RunInfo& run);

// Throws std::invalid_argument("<what>: invalid column name '...'" / "duplicate column name '...'")
// for a name that is empty, starts with '#', or contains ',', '"' or whitespace, or that repeats
// one in `taken` or an earlier name.
void checkColumnNames(const std::vector<std::string>& names, std::set<std::string> taken, const std::string& what);

// Appends "," and each value (shortest round-trip decimal) to `line`.
void appendValues(std::string& line, const auto& values) {
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    line += ',';
    appendDouble(line, values[j]);
  }
}

}  // namespace pvi::output::detail
