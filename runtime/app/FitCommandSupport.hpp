#pragma once
// What the variational path (FitCommand.cpp) and the sampling path (SampleCommand.cpp) of `fit`
// share.
#include <filesystem>
#include <string>

#include "runtime/app/BindData.hpp"
#include "runtime/app/Cli.hpp"

namespace pvi::app {

// "out/fit.csv" -> "out/fit": the prefix of a run's other outputs.
inline std::string stem(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.parent_path() / p.stem()).string();
}

// The sampling path, after the options were parsed and the data bound.
int runSampling(const std::string& program, const LoadedModel& model, const BoundModel& bound, const FitCli& fit,
                const OutputCli& output, const FitOptions& options);

}  // namespace pvi::app
