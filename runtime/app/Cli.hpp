#pragma once
// The command-line interface shared by `pvic run` (JIT) and the executables `pvic build` makes
// (AOT): the same options, defaults, messages and exit codes (docs/cli.md).
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "runtime/app/LoadedModel.hpp"
#include "runtime/fit/FitOptions.hpp"

namespace pvi::app {

// Exit codes (docs/cli.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;    // invalid model, data or options
inline constexpr int kExitUsage = 2;      // bad command line, or an input file cannot be read
inline constexpr int kExitFitFailed = 3;  // the fit itself failed (numerical failure)
inline constexpr int kExitOutput = 4;     // an output file could not be written

struct DataCli {
  std::string data;                          // shared data, CmdStan JSON
  std::vector<std::string> partitionData;    // one CSV file, or one JSON file per partition
  std::vector<std::string> partitionLabels;  // labels of JSON partitions (default: file stems)
  std::string partitionBy;                   // CSV partition column (default: the model's partition name)
  std::vector<std::string> maps;             // categorical mappings "col=a:1,b:0"
  bool allowSinglePartition = false;
};

struct FitCli {
  FitOptions fit;
  std::string algorithm = "auto";
  std::string schedule;         // parsed into fit.schedule (empty: auto)
  std::string family;           // parsed into fit.family (empty: auto)
  std::string locals;           // parsed into fit.locals (empty: auto)
  std::string globals;          // fit.skewedGlobals (empty: auto)
  std::string innerProposal;    // fit.laplaceLocals (empty: auto)
  std::size_t roundBudget = 0;  // 0: none
  std::string progress = "auto";
  // NUTS (the rest of its options are in fit.sampling).
  std::string metric = "diag";        // parsed into fit.sampling.metric
  std::string adaptation = "fisher";  // parsed into fit.sampling.adaptation
  std::string start = "laplace";      // fit.laplaceStart
  long long warmup = -1;              // < 0: the adaptation's default
};

struct OutputCli {
  std::string output = "fit.csv";  // Stan CSV draws
  std::string summaryJson;         // default: <output stem>-summary.json
  std::string reportDir;           // none by default
  std::string localsDir;           // default: <output stem>-locals (models with local latents)
  std::size_t draws = 1000;        // written from q; per chain for a sampler
  bool mergeChains = false;        // a sampler's chains in one file with a chain__ column
  std::string resample = "psis";   // variational fits: psis (importance resampling) or none
  bool showLocals = false;         // also print each partition's summary (always written to files)
};

struct LogDensityCli {
  std::vector<double> z, w, theta;  // unconstrained; empty: zeros
};

void addDataOptions(CLI::App& cmd, DataCli& data);
void addFitOptions(CLI::App& cmd, FitCli& fit, OutputCli& output);
void addLogDensityOptions(CLI::App& cmd, LogDensityCli& point);

// Each returns an exit code and reports errors on stderr, prefixed with `program`.
int runFit(const std::string& program, const LoadedModel& model, const DataCli& data, const FitCli& fit,
           const OutputCli& output);
int runCheckData(const std::string& program, const LoadedModel& model, const DataCli& data);
int runLogDensity(const std::string& program, const LoadedModel& model, const DataCli& data,
                  const LogDensityCli& point);
int runInfo(const LoadedModel& model);

// The standalone executable's command line (fit, check-data, log-density, info).
int standaloneMain(int argc, char** argv, const LoadedModel& model);

}  // namespace pvi::app
