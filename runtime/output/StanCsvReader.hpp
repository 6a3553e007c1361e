#pragma once
// Reads a Stan CSV file (pvic's draws files, CmdStan's output, per-partition locals files):
// comment lines, the column header, and the numeric rows. docs/output.md describes the format.
#include <cstddef>
#include <filesystem>
#include <istream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace pvi::output {

// A malformed file; what() is "<source>:<line>: <problem>".
class StanCsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One "# Adaptation terminated" block of a sampling file (CmdStan's layout): the adapted step size
// and the inverse metric, diagonal ("# Diagonal elements of inverse mass matrix:", one line) or
// dense ("# Elements of inverse mass matrix:", one line per row); both empty when the block has no
// metric (unit_e).
struct StanCsvAdaptation {
  double stepSize = 0.0;
  Eigen::VectorXd inverseMetricDiagonal;
  Eigen::MatrixXd inverseMetricDense;
};

// CmdStan's timing block ("Elapsed Time: ... seconds (Warm-up)", "(Sampling)", "(Total)").
struct StanCsvTiming {
  double warmupSeconds = 0.0;
  double samplingSeconds = 0.0;
  double totalSeconds = 0.0;
};

struct StanCsvFile {
  std::vector<std::string> comments;          // every comment line without its '#', in file order
  std::map<std::string, std::string> config;  // "key = value" comments before the column header,
                                              // trimmed, " (Default)" removed; the last one wins
  std::vector<std::string> columns;
  std::optional<Eigen::VectorXd> mean;         // the first row, when config "method" is "variational"
  Eigen::MatrixXd draws;                       // the other rows
  std::vector<StanCsvAdaptation> adaptations;  // sampling files: one per chain, in file order
  std::optional<StanCsvTiming> timing;         // the (last) timing block, when the file has one

  std::optional<std::size_t> columnIndex(std::string_view name) const;
};

// Throws StanCsvError on a malformed file, and when the file cannot be opened.
StanCsvFile readStanCsv(const std::filesystem::path& path);
StanCsvFile parseStanCsv(std::istream& in, const std::string& sourceName);

}  // namespace pvi::output
