#pragma once
// Compiles a .pvi program with the JIT and binds generated or given data, for the code
// generation tests.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/Frontend.hpp"
#include "runtime/model/CompiledModel.hpp"

namespace pvi::test {

struct Compiled {
  FrontendResult front;
  std::optional<LoweredModel> lowered;
  std::unique_ptr<JitModel> jit;
  std::string errors;  // diagnostics when something failed
};

// fuse: see lowerModel (false: one kernel call per element-wise operation).
Compiled compileModel(const std::string& source, bool fuse = true);

// The text of a file, and of examples/<name>/model.pvi.
std::string readFile(const std::filesystem::path& p);
std::string readExample(const std::string& name);

// Random data that satisfy the data block's declarations: sizes between 2 and 5, values within
// their bounds. `partitions` partitions of per-partition data.
struct GeneratedData {
  DataBlock shared;
  std::vector<DataBlock> partitions;
};
GeneratedData randomData(const CheckedProgram& program, size_t partitions, std::mt19937_64& rng);

// Normal(0, sd) draws.
std::vector<double> randomVector(size_t n, std::mt19937_64& rng, double sd = 0.7);
double normalLpdf(double y, double mu, double sigma);

// Gradients against finite differences: g within 1e-6 relative of fd (plus the rounding error
// of f itself).
void expectGradientNear(const std::vector<double>& g, const std::vector<double>& fd, double f, const std::string& what);
// a and b have the same prior factor (value and gradient) at `trials` random points of
// Normal(0, sd) coordinates: within 1e-12 relative to 1 + |reference|, b being the reference.
void expectSamePriorFactor(const CompiledModel& a, const CompiledModel& b, std::mt19937_64& rng, int trials, double sd);
// Checks the gradients of every factor of a compiled model at a random point.
void checkGradients(const CompiledModel& m, std::mt19937_64& rng);

// Emits the model as an object file, links it with the kernel library and checks that values
// and gradients of every factor equal the JIT's bit for bit at a random point.
void expectAotBitIdentical(const Compiled& c, const DataBlock& shared, const std::vector<DataBlock>& partitions,
                           std::mt19937_64& rng, const std::string& tag);

// Central finite-difference gradient of f at x.
std::vector<double> finiteDifference(const std::function<double(const std::vector<double>&)>& f,
                                     std::vector<double> x, double h = 1e-6);

// What `f` writes to stderr (file descriptor 2), through a temporary file.
template <class F>
std::string stderrOf(F f) {
  std::fflush(stderr);
  char path[] = "/tmp/pvi_print_testXXXXXX";
  const int fd = mkstemp(path);
  const int saved = dup(2);
  dup2(fd, 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

}  // namespace pvi::test
