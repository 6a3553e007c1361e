#pragma once
// What the variational path (FitCommand.cpp) and the sampling path (SampleCommand.cpp) of `fit`
// share.
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/app/BindData.hpp"
#include "runtime/app/Cli.hpp"
#include "runtime/fit/Fit.hpp"
#include "runtime/fit/PosteriorDraws.hpp"
#include "runtime/fit/Progress.hpp"
#include "runtime/output/Summary.hpp"

namespace pvi::app {

// "out/fit.csv" -> "out/fit": the prefix of a run's other outputs.
inline std::string stem(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.parent_path() / p.stem()).string();
}

// Runs `fit` with the progress display the options ask for (on stderr, ended before returning).
// Returns kExitOk with `result` set, or prints the failure and returns its exit code: kExitInvalid
// for bad options (FitConfigurationError), kExitFitFailed for anything else.
int fitWithProgress(const std::string& program, const FitCli& options,
                    const std::function<FitResult(ProgressDisplay&)>& fit, FitResult& result);

// Runs `write` (a fit's outputs and the report on stdout). Returns kExitOk, or prints the failure
// and returns kExitOutput for a file that could not be written, kExitFitFailed for anything else.
int writeOutputs(const std::string& program, const std::function<void()>& write);

// Each partition with locals or partition generated quantities gets its own directory of outputs
// under --locals-dir (default <output stem>-locals), created before the first: calls
// `write(directory, j, table)` for those partitions and returns the "wrote" line's text, a real
// path ("out/fit-locals/ (60 partition directories)", or the one partition's directory), or ""
// when no partition had any.
std::string writeEachPartition(const CompiledModel& model, const PosteriorDraws& draws, const OutputCli& output,
                               const std::function<void(const std::string&, std::size_t, const DrawTable&)>& write);

// With --show-locals, the partitions' summary tables, printed after the main one.
struct PartitionTables {
  std::vector<std::pair<std::string, std::vector<output::ColumnSummary>>> tables;  // label, rows
  void print() const;
};

// Where a run's time went (seconds; compile < 0: not compiled by this process), and what its fit
// evaluated, as the report's last line:
//   "time: compile 0.12 s, data 0.03 s, start 0.14 s, fit 0.80 s, draws 0.25 s, write 0.05 s;
//    evaluations: 168,000 partition gradients, 4,480 partition values, ...; peak memory 98 MB"
// Seconds since construction or the last lap().
class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

struct PhaseTimes {
  double compile = -1.0, data = 0.0, start = 0.0, fit = 0.0, draws = 0.0, write = 0.0;
};
std::string workLine(const PhaseTimes& times, const EvaluationCounts& evaluations);

// The sampling path, after the options were parsed and the data bound.
int runSampling(const std::string& program, const LoadedModel& model, const BoundModel& bound, const FitCli& fit,
                const OutputCli& output, const FitOptions& options, PhaseTimes times);

}  // namespace pvi::app
