// PVI on the compiled model against the same PVI on a hand-written Eigen model, in one run, on
// the spambase split A (10 clients of 368 e-mails, D = 58 globals, mean-field Gaussian, Adam with
// the reproduction's full-budget settings: 800 steps, 8 draws per step):
//   SyncRound/<model>   one synchronous PVI round from the prior (rho = 0.2), clients on a
//                       2-thread pool
//   Fit/<model>         a full fit: 10 synchronous rounds
//   ClientEval/<model>  one client's log-likelihood and gradient (368 rows), the unit of work
//                       of the above (8 per Adam step)
// Wall-clock time (the work is on the pool's threads), median of repetitions that are randomly
// interleaved (--benchmark_enable_random_interleaving, on by default here) so that load from
// other processes hits both models alike. After the runs, the ratios compiled / hand-written of
// the medians are printed.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "CompiledSpamModel.hpp"
#include "EigenLogisticModel.hpp"
#include "runtime/model/WithGaussianPrior.hpp"
#include "runtime/algorithms/pvi/Pvi.hpp"

namespace {

using Family = pvi::MeanFieldGaussian;

struct Models {
  spam::SpamData data = spam::loadSpamData(PVI_SOURCE_DIR "/examples/logistic_regression");
  spam::Split split = spam::splitA(data.client);
  std::unique_ptr<spam::JitProgram> program =
      spam::compileProgram(PVI_SOURCE_DIR "/examples/logistic_regression/model.pvi");
  pvi::CompiledModel compiledRaw = spam::bindSpamData(*program, data, split);
  pvi::WithGaussianPrior compiled{compiledRaw, spam::probedPrior(compiledRaw)};
  spam::EigenLogisticModel eigen{data, split};
};

const Models& models() {
  static const Models m;
  return m;
}

const pvi::FactorModel& model(bool compiled) {
  if (compiled) return models().compiled;
  return models().eigen;
}

void run(benchmark::State& state, bool compiled, std::size_t rounds) {
  pvi::algorithms::AdamOptions adam;
  adam.learningRate = 0.05;
  adam.finalLearningRateFraction = 0.02;
  adam.steps = 800;
  adam.samples = 8;
  auto optimiser = std::make_shared<pvi::algorithms::AdamOptimiser<Family>>(adam);
  pvi::federation::SynchronousOptions sync;
  sync.rounds = rounds;
  sync.damping = 0.2;
  sync.threads = 2;
  for (auto _ : state) {
    auto federation = pvi::federation::makeFederation<Family>(model(compiled), optimiser);
    pvi::federation::runSynchronous(federation, sync);
    benchmark::DoNotOptimize(federation.server().posterior().eta1.data());
  }
}

void clientEval(benchmark::State& state, bool compiled) {
  const pvi::FactorModel& m = model(compiled);
  std::vector<double> z(m.globalDim(), 0.05), g(m.globalDim());
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.partitionLogDensity(0, z.data(), nullptr, nullptr, g.data(), nullptr, nullptr));
    benchmark::DoNotOptimize(g.data());
  }
}

// Collects the median real time of every benchmark for the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")
        seconds_[r.benchmark_name()] = r.GetAdjustedRealTime();
    ConsoleReporter::ReportRuns(runs);
  }
  // Benchmark names carry suffixes ("/min_time:2.000/real_time"): match on the prefix.
  void printRatios() const {
    const auto find = [&](const std::string& prefix) {
      for (const auto& [name, t] : seconds_)
        if (name.rfind(prefix, 0) == 0) return t;
      return -1.0;
    };
    for (const char* what : {"ClientEval", "SyncRound", "Fit"}) {
      const double c = find(std::string(what) + "/compiled"), e = find(std::string(what) + "/eigen");
      if (c > 0 && e > 0) std::printf("%s: compiled / hand-written = %.3f\n", what, c / e);
    }
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace

int main(int argc, char** argv) {
  for (bool compiled : {true, false}) {
    const std::string name = compiled ? "compiled" : "eigen";
    benchmark::RegisterBenchmark(("ClientEval/" + name).c_str(), clientEval, compiled)
        ->Unit(benchmark::kMicrosecond)
        ->Repetitions(5)
        ->ReportAggregatesOnly();
    benchmark::RegisterBenchmark(("SyncRound/" + name).c_str(), run, compiled, std::size_t{1})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1)
        ->Repetitions(7)
        ->ReportAggregatesOnly();
    benchmark::RegisterBenchmark(("Fit/" + name).c_str(), run, compiled, std::size_t{10})
        ->Unit(benchmark::kSecond)
        ->UseRealTime()
        ->Iterations(1)
        ->Repetitions(3)
        ->ReportAggregatesOnly();
  }
  models();  // load and compile outside the timings
  std::vector<char*> args(argv, argv + argc);
  char interleave[] = "--benchmark_enable_random_interleaving=true";
  args.insert(args.begin() + 1, interleave);  // a later command-line flag overrides it
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printRatios();
}
