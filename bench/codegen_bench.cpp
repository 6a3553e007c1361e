// Generated code against hand-written C++ baselines, in the same run:
//   LogisticJit / LogisticNative  value + gradient of the logistic regression likelihood
//                                  (N = 10,000 rows, D = 20). LogisticNative is the strong
//                                  baseline, the ratio to report: Eigen arrays with vectorised
//                                  exp and log at -O3 for the host (native_baselines.hpp).
//   LogisticEigen                 the same with a scalar loop over std::exp / std::log1p at the
//                                  project's flags, an extra row: not the baseline to beat
//   CompileLatency/<example>      source text to callable function pointers
// Before anything is timed, both baselines are checked against the generated value and gradient
// (1e-10 relative); the program aborts if they differ.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/Frontend.hpp"
#include "native_baselines.hpp"
#include "runtime/model/CompiledModel.hpp"

namespace {

constexpr int64_t kN = 10000, kD = 20;

const char* kLogistic = R"(
@partition(client)
data { int D; }
data per client { int N; matrix[N, D] X; array[N] int<lower=0, upper=1> y; }
global { real alpha; vector[D] beta; }
model {
  alpha ~ normal(0, 1);
  beta ~ normal(0, 1);
  y ~ bernoulli_logit(alpha + X * beta);
}
)";

struct Problem {
  Eigen::MatrixXd X{kN, kD};
  Eigen::VectorXd yReal{kN};
  std::vector<int64_t> y = std::vector<int64_t>(kN);
  std::vector<double> z = std::vector<double>(kD + 1);
  Problem() {
    std::mt19937_64 rng(1);
    std::normal_distribution<double> nd;
    for (int64_t j = 0; j < kD; ++j)
      for (int64_t i = 0; i < kN; ++i) X(i, j) = nd(rng);
    for (int64_t i = 0; i < kN; ++i) {
      y[i] = nd(rng) > 0 ? 1 : 0;
      yReal[i] = static_cast<double>(y[i]);
    }
    for (double& v : z) v = 0.1 * nd(rng);
  }
};

const Problem& problem() {
  static const Problem p;
  return p;
}

struct Compiled {
  std::unique_ptr<pvi::JitModel> jit;
  pvi::DataSchema schema;
};

Compiled compile(const std::string& source) {
  pvi::FrontendResult r = pvi::runFrontend("bench.pvi", source);
  std::optional<pvi::LoweredModel> lowered;
  if (r.ok()) lowered = pvi::lowerModel(*r.checked, *r.diags);
  if (!lowered) {
    std::fprintf(stderr, "cannot compile the benchmark model:\n%s", r.diags->brief().c_str());
    std::abort();
  }
  return {pvi::JitModel::compile(*lowered), lowered->schema};
}

// The generated model bound to the problem's data.
pvi::CompiledModel& logisticModel() {
  static Compiled compiled = compile(kLogistic);
  static pvi::CompiledModel model = [] {
    const Problem& p = problem();
    pvi::DataBlock shared;
    shared.addInt(kD);
    pvi::DataBlock part;
    part.addInt(kN).addReals(std::vector<double>(p.X.data(), p.X.data() + kN * kD)).addInts(p.y);
    return pvi::CompiledModel(compiled.jit->code(), compiled.schema, shared, {part});
  }();
  return model;
}

double nativeLogistic(const Problem& p, std::vector<double>& grad, std::vector<double>& work) {
  return pvi_bench_logistic_native(kN, kD, p.X.data(), p.yReal.data(), p.z.data(), grad.data(), work.data());
}

// Aborts unless value and gradient of a baseline equal the generated ones within 1e-10 relative.
void expectAgreesWithTheGeneratedCode(const char* name, double value, const std::vector<double>& grad) {
  const Problem& p = problem();
  std::vector<double> g(kD + 1);
  const double v = logisticModel().partitionLogDensity(0, p.z.data(), nullptr, nullptr, g.data(), nullptr, nullptr);
  double worst = std::abs(value - v) / std::max(1.0, std::abs(v));
  for (int64_t j = 0; j <= kD; ++j) worst = std::max(worst, std::abs(grad[j] - g[j]) / std::max(1.0, std::abs(g[j])));
  if (!(worst <= 1e-10)) {
    std::fprintf(stderr,
                 "%s and the generated code differ: value %.17g against %.17g, largest relative "
                 "difference %.2e\n",
                 name, value, v, worst);
    std::abort();
  }
}

void LogisticJit(benchmark::State& state) {
  const Problem& p = problem();
  pvi::CompiledModel& m = logisticModel();
  std::vector<double> g(kD + 1);
  for (auto _ : state) {
    double v = m.partitionLogDensity(0, p.z.data(), nullptr, nullptr, g.data(), nullptr, nullptr);
    benchmark::DoNotOptimize(v);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(LogisticJit)->Unit(benchmark::kMicrosecond);

// The same value and gradient written by hand: eta = alpha + X beta; value and d/d eta in one
// fused, numerically stable scalar pass; then X^T d.
double scalarLogistic(const Problem& p, Eigen::VectorXd& eta, Eigen::VectorXd& d, Eigen::VectorXd& g, double& gAlpha) {
  Eigen::Map<const Eigen::VectorXd> beta(p.z.data() + 1, kD);
  eta.noalias() = p.X * beta;
  double value = 0;
  double alpha = p.z[0];
  for (int64_t i = 0; i < kN; ++i) {
    double a = alpha + eta[i];
    double e = std::exp(-std::fabs(a));
    double logistic = a >= 0 ? 1 / (1 + e) : e / (1 + e);
    value += (p.y[i] ? std::min(a, 0.0) : std::min(-a, 0.0)) - std::log1p(e);
    d[i] = p.yReal[i] - logistic;
  }
  g.noalias() = p.X.transpose() * d;
  gAlpha = d.sum();
  return value;
}

void LogisticEigen(benchmark::State& state) {
  const Problem& p = problem();
  Eigen::VectorXd eta(kN), d(kN), g(kD);
  double gAlpha = 0;
  {
    std::vector<double> grad(kD + 1);
    const double v = scalarLogistic(p, eta, d, g, gAlpha);
    grad[0] = gAlpha;
    for (int64_t j = 0; j < kD; ++j) grad[j + 1] = g[j];
    expectAgreesWithTheGeneratedCode("LogisticEigen", v, grad);
  }
  for (auto _ : state) {
    double value = scalarLogistic(p, eta, d, g, gAlpha);
    benchmark::DoNotOptimize(value);
    benchmark::DoNotOptimize(gAlpha);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(LogisticEigen)->Unit(benchmark::kMicrosecond);

void LogisticNative(benchmark::State& state) {
  const Problem& p = problem();
  std::vector<double> grad(kD + 1), work(3 * kN);
  expectAgreesWithTheGeneratedCode("LogisticNative", nativeLogistic(p, grad, work), grad);
  for (auto _ : state) {
    double value = nativeLogistic(p, grad, work);
    benchmark::DoNotOptimize(value);
    benchmark::DoNotOptimize(grad.data());
  }
}
BENCHMARK(LogisticNative)->Unit(benchmark::kMicrosecond);

void CompileLatency(benchmark::State& state, const std::string& example) {
  std::ifstream in(std::filesystem::path(PVI_SOURCE_DIR) / "examples" / example / "model.pvi");
  std::stringstream s;
  s << in.rdbuf();
  for (auto _ : state) benchmark::DoNotOptimize(compile(s.str()));
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* e : {"linear_regression", "logistic_regression", "hierarchical_logistic", "six_cities",
                        "poisson_random_effect", "bnn_classifier"})
    benchmark::RegisterBenchmark((std::string("CompileLatency/") + e).c_str(), CompileLatency, std::string(e))
        ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
}
