#pragma once
// Helpers shared by the front-end tests.
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/driver/Frontend.hpp"

namespace pvi::test {

std::filesystem::path sourceDir();
std::string readText(const std::filesystem::path& p);
void writeText(const std::filesystem::path& p, const std::string& text);

// examples/*/model.pvi, sorted.
std::vector<std::filesystem::path> exampleModels();

// Runs the front end on a program given as text.
FrontendResult check(const std::string& text, const std::string& path = "test.pvi");

// Runs pvic with arguments; returns its exit status (or 128 + signal) and captured output.
struct ProcessResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};
ProcessResult runPvic(const std::vector<std::string>& args);

// Compares `actual` with the file `expected`; with PVI_UPDATE_DUMPS=1 in the environment it
// rewrites the file instead (the stanc3 way: review the diff, then commit it).
void expectMatchesFile(const std::string& actual, const std::filesystem::path& expected);

}  // namespace pvi::test
