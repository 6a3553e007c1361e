#pragma once
// Running pvic and built executables as subprocesses, in a fresh temporary directory per test.
#include <filesystem>
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

}  // namespace pvi::test
