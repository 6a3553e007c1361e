// Eight schools, non-centred (examples/eight_schools/noncentered.pvi, 8 partitions of one row):
// the joint log density and its gradient over (mu, log tau, theta_tilde[1..8]) as NUTS evaluates
// it, where the fixed cost per call dominates (nine factor calls of a few operations each).
//
//   EightSchoolsJit     JointDensity over the JIT-compiled model
//   EightSchoolsNative  the strong baseline, the ratio to report: the same value and gradient by
//                       hand, -O3 for the host (native_baselines.hpp)
//
// Built into pvi_codegen_bench; before anything is timed the two are checked against each other
// at a random point (1e-12 relative), and the program aborts if they differ.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/Frontend.hpp"
#include "native_baselines.hpp"
#include "runtime/model/CompiledModel.hpp"
#include "runtime/model/JointDensity.hpp"

namespace {

// examples/eight_schools/data_per_school.csv
const double kY[8] = {28, 8, -3, 7, -1, 1, 18, 12};
const double kSigma[8] = {15, 10, 16, 11, 9, 11, 10, 18};

struct EightSchools {
  std::unique_ptr<pvi::JitModel> jit;
  std::unique_ptr<pvi::CompiledModel> model;
  std::unique_ptr<pvi::JointDensity> joint;
  std::vector<double> x;
};

EightSchools& eightSchools() {
  static EightSchools e = [] {
    EightSchools s;
    std::ifstream in(std::filesystem::path(PVI_SOURCE_DIR) / "examples" / "eight_schools" / "noncentered.pvi");
    std::stringstream text;
    text << in.rdbuf();
    pvi::FrontendResult r = pvi::runFrontend("noncentered.pvi", text.str());
    std::optional<pvi::LoweredModel> lowered;
    if (r.ok()) lowered = pvi::lowerModel(*r.checked, *r.diags);
    if (!lowered) {
      std::fprintf(stderr, "cannot compile eight schools:\n%s", r.diags->brief().c_str());
      std::abort();
    }
    s.jit = pvi::JitModel::compile(*lowered);
    std::vector<pvi::DataBlock> schools(8);
    for (int j = 0; j < 8; ++j) schools[j].addReal(kY[j]).addReal(kSigma[j]);
    s.model = std::make_unique<pvi::CompiledModel>(s.jit->code(), lowered->schema, pvi::DataBlock{}, schools);
    s.joint = std::make_unique<pvi::JointDensity>(*s.model);
    std::mt19937_64 rng(5);
    std::normal_distribution<double> nd;
    s.x.resize(s.joint->dim());
    for (double& v : s.x) v = nd(rng);
    return s;
  }();
  return e;
}

double native(const double* x, double* g) {
  static const pvi_bench_eight_schools_data data = [] {
    pvi_bench_eight_schools_data d;
    pvi_bench_eight_schools_prepare(kY, kSigma, &d);
    return d;
  }();
  return pvi_bench_eight_schools_native(&data, x, g);
}

void EightSchoolsJit(benchmark::State& state) {
  EightSchools& e = eightSchools();
  std::vector<double> g(e.joint->dim()), h(e.joint->dim());
  const double v = e.joint->logDensity(e.x.data(), g.data());
  const double w = native(e.x.data(), h.data());
  double worst = std::abs(v - w) / std::max(1.0, std::abs(w));
  for (size_t k = 0; k < g.size(); ++k) worst = std::max(worst, std::abs(g[k] - h[k]) / std::max(1.0, std::abs(h[k])));
  if (!(worst <= 1e-12) || g.size() != 10) {
    std::fprintf(stderr, "eight schools: generated %.17g and hand-written %.17g differ (%.2e)\n", v, w, worst);
    std::abort();
  }
  for (auto _ : state) {
    double value = e.joint->logDensity(e.x.data(), g.data());
    benchmark::DoNotOptimize(value);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(EightSchoolsJit)->Unit(benchmark::kNanosecond);

void EightSchoolsNative(benchmark::State& state) {
  EightSchools& e = eightSchools();
  std::vector<double> g(10);
  for (auto _ : state) {
    double value = native(e.x.data(), g.data());
    benchmark::DoNotOptimize(value);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(EightSchoolsNative)->Unit(benchmark::kNanosecond);

}  // namespace
