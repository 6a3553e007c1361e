// EP, EP-eta and EP-mu against a long NUTS run (docs/fitting.md, "EP") on two models: the
// contraception example (60 districts, 7 globals, one local each) and the EP paper's own
// hierarchical logistic regression (examples/ep_hierarchical_logistic: 16 groups, 8 globals, 4
// locals each). The EP paper's Figure 2 question (do EP-eta and EP-mu reach a given accuracy in
// fewer sampler steps than EP?), its Figure 3 point (the final approximation against SFVI's), and
// the speed question (EP-mu's wall time to KL < 0.05 against NUTS's own).
//
//   Reference    NUTS, 4 chains of 5,000 draws after the default warm-up (adapt_delta 0.99 on the
//                paper's model, a funnel): the mean and covariance of z (unconstrained) that every
//                KL below is measured against.
//   Pareto/<model>/<variant>/<step>
//                one fit (seed 1) with the reference traced: counters kl_final (KL(q || ref) of
//                the reported, averaged q), steps_to_kl05 and s_to_kl05 (the first iteration's
//                cumulative sampler steps and seconds at which the iterate's KL fell below 0.05;
//                0 when it never did), sampler_steps, steps_per_s_per_site (sampler steps per
//                second of one site's chain: total / seconds / sites * threads). The step is the
//                fit's default times 0.5, 1 or 2.
//   Sfvi/<model>  the default SFVI fit (seed 1): kl_final and seconds.
//   NutsToKl/<model>/<draws>
//                NUTS with 4 chains of `draws` draws (the default warm-up), seed 1: counters kl
//                (of the draws' mean and covariance) and seconds (wall, the chains in parallel).
//                The smallest draws with kl < 0.05 is NUTS's time to that accuracy.
//
// Plain EP needs more than D + 2 draws per update; it runs with 20 and fewer iterations.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>

#include "pvi/pvi.hpp"
#include "runtime/families/Gaussian.hpp"

namespace {

struct Example {
  const char* name;     // in the benchmarks' names
  const char* dir;      // under examples/
  const char* csv;      // its partition CSV
  double sites;         // partitions
  double adaptDelta;    // the reference NUTS run's
};
const Example kExamples[] = {{"contraception", "hierarchical_logistic", "data_per_district.csv", 60, 0.8},
                             {"ep-paper", "ep_hierarchical_logistic", "data_per_group.csv", 16, 0.99}};

const pvi::BoundModel& model(const Example& e) {
  static std::map<std::string, pvi::BoundModel> models;
  auto it = models.find(e.name);
  if (it == models.end()) {
    const std::string dir = std::string(PVI_SOURCE_DIR) + "/examples/" + e.dir + "/";
    pvi::DataSources data;
    data.sharedJson = dir + "data.json";
    data.partitionCsv = dir + e.csv;
    it = models.emplace(e.name, pvi::Model::fromFile(dir + "model.pvi").bind(data)).first;
  }
  return it->second;
}

const pvi::FullStandard& reference(const Example& e) {
  static std::map<std::string, pvi::FullStandard> refs;
  auto it = refs.find(e.name);
  if (it == refs.end()) {
    pvi::FitOptions o;
    o.algorithm = pvi::Algorithm::Nuts;
    o.sampling.draws = 5000;
    o.sampling.adaptDelta = e.adaptDelta;
    o.seed = 2026;
    const pvi::Posterior p = model(e).fit(o);
    it = refs.emplace(e.name, pvi::FullStandard{p.mean(), p.covariance()}).first;
  }
  return it->second;
}

double klOf(const pvi::Posterior& p, const pvi::FullStandard& ref) {
  return p.result().usable ? pvi::kl(pvi::FullStandard{p.mean(), p.covariance()}, ref) : INFINITY;
}

void Pareto(benchmark::State& state, const Example& e, pvi::Algorithm a, double stepFactor) {
  const pvi::FullStandard& ref = reference(e);
  double klFinal = 0, stepsTo = 0, secondsTo = 0, steps = 0, rate = 0;
  for (auto _ : state) {
    pvi::FitOptions o;
    o.algorithm = a;
    o.seed = 1;
    o.threads = 2;
    o.ep.referenceMean = ref.m;
    o.ep.referenceCovariance = ref.S;
    if (a == pvi::Algorithm::Ep) {
      o.ep.samples = 20;
      o.rounds = 300;
      o.ep.step = 0.5 * stepFactor;
    } else {
      // AlgorithmChoice's default eps times the factor; the warm-up's start it derives from it.
      o.ep.step = std::min(0.02, 0.1 / e.sites) * stepFactor;
    }
    const pvi::Posterior p = model(e).fit(o);
    const pvi::FitResult& r = p.result();
    klFinal = klOf(p, ref);
    stepsTo = secondsTo = 0;
    for (const auto& rec : r.trace)
      if (rec.metrics.at("kl_to_reference") < 0.05) {
        stepsTo = rec.metrics.at("sampler_steps");
        secondsTo = rec.seconds;
        break;
      }
    steps = r.trace.empty() ? 0 : r.trace.back().metrics.at("sampler_steps");
    rate = steps / r.seconds / e.sites * 2.0;
  }
  state.counters["kl_final"] = klFinal;
  state.counters["steps_to_kl05"] = stepsTo;
  state.counters["s_to_kl05"] = secondsTo;
  state.counters["sampler_steps"] = steps;
  state.counters["steps_per_s_per_site"] = rate;
}

void Sfvi(benchmark::State& state, const Example& e) {
  const pvi::FullStandard& ref = reference(e);
  double klFinal = 0, seconds = 0;
  for (auto _ : state) {
    pvi::FitOptions o;
    o.algorithm = pvi::Algorithm::Sfvi;
    o.seed = 1;
    const auto start = std::chrono::steady_clock::now();
    const pvi::Posterior p = model(e).fit(o);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    klFinal = klOf(p, ref);
  }
  state.counters["kl_final"] = klFinal;
  state.counters["seconds"] = seconds;
}

void NutsToKl(benchmark::State& state, const Example& e, std::size_t draws) {
  const pvi::FullStandard& ref = reference(e);
  double klValue = 0, seconds = 0;
  for (auto _ : state) {
    pvi::FitOptions o;
    o.algorithm = pvi::Algorithm::Nuts;
    o.sampling.draws = draws;
    o.sampling.adaptDelta = e.adaptDelta;
    o.seed = 1;
    const auto start = std::chrono::steady_clock::now();
    const pvi::Posterior p = model(e).fit(o);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    klValue = pvi::kl(pvi::FullStandard{p.mean(), p.covariance()}, ref);
  }
  state.counters["kl"] = klValue;
  state.counters["seconds"] = seconds;
}

void registerAll() {
  for (const Example& e : kExamples) {
    const std::string m = e.name;
    for (const auto& [name, a] : {std::pair{"ep", pvi::Algorithm::Ep}, std::pair{"ep-eta", pvi::Algorithm::EpEta},
                                  std::pair{"ep-mu", pvi::Algorithm::EpMu}})
      for (double f : {0.5, 1.0, 2.0})
        benchmark::RegisterBenchmark(("Pareto/" + m + "/" + name + "/x" + std::to_string(f).substr(0, 3)).c_str(),
                                     Pareto, e, a, f)
            ->Iterations(1)
            ->Unit(benchmark::kSecond);
    benchmark::RegisterBenchmark(("Sfvi/" + m).c_str(), Sfvi, e)->Iterations(1)->Unit(benchmark::kSecond);
    for (std::size_t draws : {25, 50, 100, 200, 400})
      benchmark::RegisterBenchmark(("NutsToKl/" + m + "/" + std::to_string(draws)).c_str(), NutsToKl, e, draws)
          ->Iterations(1)
          ->Unit(benchmark::kSecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
