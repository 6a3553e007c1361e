#pragma once
// Plain inputs of the result writers (docs/output.md). The fitting code fills them from its own
// types (FromTrace.hpp does it for runtime/support's Trace and CommunicationCounters), so this library
// depends on no algorithm.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace pvi::output {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// What was run, for file headers and the JSON summary.
struct RunInfo {
  std::string model;                   // the model's name (file stem)
  std::vector<std::string> dataFiles;  // as given on the command line
  std::string algorithm;               // pvic's name: "pvi", "sfvi", "ep-mu", ...
  std::string family = "meanfield";    // Gaussian family of q: "meanfield" or "fullrank" (Stan's names)
  std::vector<std::pair<std::string, std::string>> options;  // algorithm options, in order
  std::optional<std::uint64_t> seed;
  std::size_t rounds = 0;              // communication rounds run
  std::string outputFile;              // the draws file, if any
  std::string startDatetime;           // "YYYY-MM-DD HH:MM:SS UTC"; empty: the time of writing
};

// Draws in constrained space: one row per draw. The first numParameters columns are parameters
// (global latents), the rest generated quantities.
struct DrawsTable {
  std::vector<std::string> columns;
  Eigen::MatrixXd values;  // draws x columns
  std::size_t numParameters = 0;
};

// Cumulative communication at some point of a run (see runtime/support/Communication.hpp).
struct CommunicationTotals {
  std::size_t serverUpdates = 0;
  std::size_t messagesUp = 0;
  std::size_t messagesDown = 0;
  std::size_t bytesUp = 0;
  std::size_t bytesDown = 0;
  std::size_t dropped = 0;
  std::size_t accepted = 0;
  std::size_t rejected = 0;
};

// One record per communication round. NaN means "not evaluated in this round".
struct TraceRow {
  std::size_t round = 0;
  double elbo = kNaN;
  double elboStandardError = kNaN;
  double maxChange = kNaN;
  double seconds = 0.0;                  // wall clock since the fit started
  CommunicationTotals communication;     // cumulative at the end of the round
  std::map<std::string, double> metrics;  // any other per-round metric, e.g. "test_accuracy"
};

}  // namespace pvi::output
