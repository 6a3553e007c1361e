#pragma once
// `pvic run` (JIT-compile and fit) and `pvic build` (a standalone inference executable).
#include <string>

#include "runtime/app/Cli.hpp"

namespace pvi::driver {

struct BuildOptions {
  std::string output;  // the executable; default: the model file's stem
  bool keepObject = false;
};

int runModel(const std::string& file, const app::DataCli& data, const app::FitCli& fit, const app::OutputCli& output);
int buildModel(const std::string& file, const BuildOptions& options);

}  // namespace pvi::driver
