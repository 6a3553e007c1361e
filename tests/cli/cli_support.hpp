#pragma once
// Running pvic and built executables as subprocesses, in a fresh temporary directory per test.
#include <filesystem>
#include <map>
#include <string>

namespace pvi::test {

struct ProcessResult {
  int exitCode = -1;
  std::string out, err;
};

// Runs `command` through the shell; stdout and stderr captured separately.
ProcessResult run(const std::string& command);

// A temporary directory removed at the end of its scope.
struct TempDir {
  TempDir();
  ~TempDir();
  std::filesystem::path path;
};

std::string example(const std::string& name);  // <source>/examples/<name>
std::string pvic();
std::string slurp(const std::filesystem::path& p);

// The excess kurtosis of every column of a run's draws, the chains' CSV files <stem>_1.csv,
// <stem>_2.csv, ... in `dir` pooled (NaN for a constant column).
std::map<std::string, double> drawsExcessKurtosis(const std::filesystem::path& dir, const std::string& stem);

// The standard error of an sd estimated from `ess` effective draws of a marginal with excess
// kurtosis k, relative to the sd: sqrt((k + 2) / (4 ess)) (the delta method on the variance,
// whose relative standard error is sqrt((k + 2) / ess)); 1 / sqrt(2 ess) for a Gaussian.
double relativeSdError(double excessKurtosis, double ess);

}  // namespace pvi::test
