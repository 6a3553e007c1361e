// NUTS on the bundled examples' real data (docs/sampling.md, "Efficiency"):
//
//   Efficiency/<model>/<adaptation>/<warmup>
//       4 chains (seeds 1..3, one per iteration; 1..20 for eight schools) of <warmup> warm-up and
//       1000 draws. Counters:
//       grads (gradient evaluations, warm-up included), min_ess (the smaller of bulk and tail ESS,
//       minimised over the model's globals, posterior's definitions), ess_per_grad, ess_per_chain_s
//       (min_ess per second of chain time, summed over the chains), and, where bench/stan/
//       stan_nuts_efficiency.csv has Stan's numbers for the same program and data (measured with
//       rstan on a development machine, see bench/stan/README.md), the ratios vs_stan_grad (our
//       ess_per_grad / Stan's) and vs_stan_s (ours / Stan's ESS per chain-second).
//   Overhead/<model>
//       the sampler's own cost: one chain's transitions with its adapted step size and metric,
//       against the same number of gradient evaluations alone at the chain's draws, in one
//       iteration. Counters: ns_per_gradient, ns_per_leapfrog, overhead = leapfrog / gradient - 1.
//
// The models are read from examples/ unchanged; the runs use the embedding API as a user would.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "pvi/pvi.hpp"
#include "runtime/diagnostics/Diagnostics.hpp"
#include "runtime/model/JointDensity.hpp"
#include "runtime/samplers/nuts/Sampler.hpp"

namespace {

struct Example {
  std::string name;  // as in bench/stan/stan_nuts_efficiency.csv's model column
  std::string dir, program, sharedJson, partitionCsv;
};

const std::vector<Example>& examples() {
  static const std::vector<Example> list = {
      {"contraception_centered", "hierarchical_logistic", "model.pvi", "data.json", "data_per_district.csv"},
      {"six_cities_centered", "six_cities", "model.pvi", "data.json", "data_per_silo.csv"},
      {"eight_schools_centered", "eight_schools", "centered.pvi", "", "data_per_school.csv"},
      {"eight_schools_noncentered", "eight_schools", "noncentered.pvi", "", "data_per_school.csv"},
  };
  return list;
}

const pvi::BoundModel& bound(const Example& e) {
  static std::map<std::string, pvi::BoundModel> cache;
  auto it = cache.find(e.name);
  if (it != cache.end()) return it->second;
  const std::string dir = std::string(PVI_SOURCE_DIR) + "/examples/" + e.dir + "/";
  pvi::DataSources data;
  if (!e.sharedJson.empty()) data.sharedJson = dir + e.sharedJson;
  data.partitionCsv = dir + e.partitionCsv;
  return cache.emplace(e.name, pvi::Model::fromFile(dir + e.program).bind(data)).first->second;
}

// Stan's mean ESS per gradient evaluation and per chain-second over its seeds, by model name.
struct StanEfficiency {
  double essPerGrad = 0.0, essPerSecond = 0.0;
};
std::map<std::string, StanEfficiency> stanEfficiency() {
  std::map<std::string, StanEfficiency> out;
  std::ifstream in(std::string(PVI_SOURCE_DIR) + "/bench/stan/stan_nuts_efficiency.csv");
  std::string line;
  if (!std::getline(in, line)) return out;
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string f; std::getline(hs, f, ',');) header.push_back(f);
  const auto col = [&](const std::string& n) -> int {
    for (std::size_t k = 0; k < header.size(); ++k)
      if (header[k] == n || header[k] == "\"" + n + "\"") return static_cast<int>(k);
    return -1;
  };
  const int model = col("model"), grads = col("grad_evals"), warm = col("warmup_s"), samp = col("sampling_s"),
            bulk = col("min_ess_bulk_globals"), tail = col("min_ess_tail_globals");
  if (model < 0 || grads < 0 || warm < 0 || samp < 0 || bulk < 0 || tail < 0) return out;
  std::map<std::string, int> runs;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string v; std::getline(ls, v, ',');) {
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      f.push_back(v);
    }
    if (f.size() != header.size()) continue;
    const double ess = std::min(std::stod(f[bulk]), std::stod(f[tail]));
    StanEfficiency& e = out[f[model]];
    e.essPerGrad += ess / std::stod(f[grads]);
    e.essPerSecond += ess / (std::stod(f[warm]) + std::stod(f[samp]));
    ++runs[f[model]];
  }
  for (auto& [name, e] : out) e.essPerGrad /= runs[name], e.essPerSecond /= runs[name];
  return out;
}

// The smallest bulk and tail ESS over the globals' columns of a sampled posterior.
double minGlobalEss(const pvi::SampledPosterior& p) {
  const auto chains = static_cast<Eigen::Index>(p.chains.size());
  const Eigen::Index n = p.draws.rows() / chains;
  double ess = INFINITY;
  for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(p.globalDim); ++k) {
    const Eigen::Map<const Eigen::MatrixXd> x(p.draws.col(k).data(), n, chains);
    const pvi::diagnostics::Diagnostics d = pvi::diagnostics::diagnose(x);
    ess = std::min({ess, d.essBulk, d.essTail});
  }
  return ess;
}

void Efficiency(benchmark::State& state, const Example& e, pvi::samplers::Adaptation adaptation, std::size_t warmup) {
  const pvi::BoundModel& model = bound(e);
  const std::map<std::string, StanEfficiency> stan = stanEfficiency();
  std::uint64_t seed = 0;
  double grads = 0, ess = 0, essPerGrad = 0, essPerSecond = 0;
  for (auto _ : state) {
    pvi::FitOptions o;
    o.algorithm = pvi::Algorithm::Nuts;
    o.seed = ++seed;
    o.sampling.adaptation = adaptation;
    o.sampling.warmup = warmup;
    const pvi::Posterior p = model.fit(o);
    const pvi::SampledPosterior& s = p.result().posterior.sampled();
    double g = 0, seconds = 0;
    for (const auto& c : s.chains) {
      g += static_cast<double>(c.warmupGradients + c.samplingGradients);
      seconds += c.warmupSeconds + c.samplingSeconds;
    }
    const double m = minGlobalEss(s);
    grads += g, ess += m, essPerGrad += m / g, essPerSecond += m / seconds;
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["grads"] = grads / runs;
  state.counters["min_ess"] = ess / runs;
  state.counters["ess_per_grad"] = essPerGrad / runs;
  state.counters["ess_per_chain_s"] = essPerSecond / runs;
  if (const auto it = stan.find(e.name); it != stan.end()) {
    state.counters["vs_stan_grad"] = essPerGrad / runs / it->second.essPerGrad;
    state.counters["vs_stan_s"] = essPerSecond / runs / it->second.essPerSecond;
  }
}

void Overhead(benchmark::State& state, const Example& e) {
  const pvi::BoundModel& model = bound(e);
  const pvi::JointDensity joint(model.factors());
  pvi::samplers::Target target;
  target.dim = joint.dim();
  target.logDensity = [&joint](const double* x, double* g) { return joint.logDensity(x, g); };
  pvi::samplers::SamplerOptions o;
  o.chains = 1;
  o.samples = 200;
  const pvi::samplers::ChainResult warm = pvi::samplers::runChain(target, o, 1);
  pvi::samplers::Nuts nuts(target, o.nuts);
  std::mt19937_64 rng(7);
  pvi::samplers::PhasePoint z(static_cast<Eigen::Index>(target.dim));
  z.q = warm.draws.row(warm.draws.rows() - 1).transpose();
  nuts.evaluate(z);
  Eigen::VectorXd gradient(static_cast<Eigen::Index>(target.dim));
  double leapfrogNs = 0, gradientNs = 0;
  std::size_t leapfrogs = 0;
  for (auto _ : state) {
    // 100 transitions, then as many gradient evaluations at the draws they visited.
    std::vector<Eigen::VectorXd> visited;
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t steps = 0;
    for (int k = 0; k < 100; ++k) {
      steps += nuts.transition(z, warm.metric, warm.stepSize, rng).leapfrogs;
      visited.push_back(z.q);
    }
    const auto t1 = std::chrono::steady_clock::now();
    double sink = 0;
    for (std::size_t k = 0; k < steps; ++k)
      sink += joint.logDensity(visited[k % visited.size()].data(), gradient.data());
    const auto t2 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(sink);
    leapfrogNs += std::chrono::duration<double, std::nano>(t1 - t0).count();
    gradientNs += std::chrono::duration<double, std::nano>(t2 - t1).count();
    leapfrogs += steps;
  }
  state.counters["ns_per_leapfrog"] = leapfrogNs / static_cast<double>(leapfrogs);
  state.counters["ns_per_gradient"] = gradientNs / static_cast<double>(leapfrogs);
  state.counters["overhead"] = leapfrogNs / gradientNs - 1.0;
}

const bool registered = [] {
  using pvi::samplers::Adaptation;
  for (const Example& e : examples()) {
    for (auto [adaptation, label] : {std::pair{Adaptation::Fisher, "fisher"}, {Adaptation::Windowed, "windowed"}})
      for (std::size_t warmup : {300, 500, 1000})
        benchmark::RegisterBenchmark(("Efficiency/" + e.name + "/" + label + "/" + std::to_string(warmup)).c_str(),
                                     Efficiency, e, adaptation, warmup)
            ->Iterations(e.dir == "eight_schools" ? 20 : 3)  // eight schools: cheap and noisy
            ->Unit(benchmark::kSecond)
            ->UseRealTime();
    benchmark::RegisterBenchmark(("Overhead/" + e.name).c_str(), Overhead, e)
        ->Iterations(5)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
