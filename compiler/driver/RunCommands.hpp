#pragma once
// `pvic run` (JIT-compile and fit) and `pvic build` (a standalone inference executable).
#include <string>

#include "runtime/app/Cli.hpp"

namespace pvi::driver {

struct BuildOptions {
  std::string output;  // the executable; default: the model file's stem
  bool keepObject = false;
  // The CPU the model's code is compiled for: "host" (this machine's, the default) or an LLVM
  // CPU name such as x86-64 (any x86-64 machine), x86-64-v3 (AVX2) or x86-64-v4 (AVX-512). The
  // kernel library picks its vector width at run time whatever this is.
  std::string cpu = "host";
};

int runModel(const std::string& file, const app::DataCli& data, const app::FitCli& fit, const app::OutputCli& output);
int buildModel(const std::string& file, const BuildOptions& options);

}  // namespace pvi::driver
