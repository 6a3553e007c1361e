// pvic check on a generated 2,000-statement model (target: under 200 ms).
//
//   CheckInProcess   parse + check through the library, as an embedding user would;
//   CheckProcess     the whole `pvic check` command, process start-up included;
//   LexOnly          ANTLR lexing of the same text: the floor any ANTLR front end pays,
//                    measured in the same run as the reference for the ratio.
#include <antlr4-runtime.h>
#include <benchmark/benchmark.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "PVILexer.h"
#include "compiler/driver/Frontend.hpp"
#include "generated_model.hpp"

namespace {

const std::string& model() {
  static const std::string text = pvi::bench::generatedModel(2000);
  return text;
}

void CheckInProcess(benchmark::State& state) {
  for (auto _ : state) {
    pvi::FrontendResult r = pvi::runFrontend("bench.pvi", model());
    if (!r.ok()) {
      state.SkipWithError(r.diags->brief().c_str());
      return;
    }
    benchmark::DoNotOptimize(r.checked->model.size());
  }
  state.counters["bytes"] = static_cast<double>(model().size());
}
BENCHMARK(CheckInProcess)->Unit(benchmark::kMillisecond);

void CheckProcess(benchmark::State& state) {
  std::string path = "/tmp/pvi-bench-2000.pvi";
  std::ofstream(path) << model();
  for (auto _ : state) {
    pid_t pid = fork();
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      execl(PVIC_PATH, PVIC_PATH, "check", path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("pvic check failed on the generated model");
      return;
    }
  }
}
BENCHMARK(CheckProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

void LexOnly(benchmark::State& state) {
  for (auto _ : state) {
    antlr4::ANTLRInputStream input(model());
    PVILexer lexer(&input);
    antlr4::CommonTokenStream tokens(&lexer);
    tokens.fill();
    benchmark::DoNotOptimize(tokens.size());
  }
}
BENCHMARK(LexOnly)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
