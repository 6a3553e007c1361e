// EP, EP-eta and EP-mu on the contraception example against a long NUTS run (docs/fitting.md,
// "EP"): the EP paper's Figure 2 question (do EP-eta and EP-mu reach a given accuracy in fewer
// sampler steps than EP?) and the speed question (EP-mu's wall time to KL < 0.05 against
// NUTS's own).
//
//   Reference    NUTS, 4 chains of 5,000 draws after the default warm-up: the mean and covariance
//                of z (unconstrained) that every KL below is measured against.
//   Pareto/<variant>/<step>
//                one fit (seed 1) with the reference traced: counters kl_final (KL(q || ref) of
//                the reported, averaged q), steps_to_kl05 and s_to_kl05 (the first iteration's
//                cumulative sampler steps and seconds at which the iterate's KL fell below 0.05;
//                0 when it never did), sampler_steps, steps_per_s_per_site (sampler steps per
//                second of one site's chain: total / seconds / sites * threads).
//   NutsToKl/<draws>
//                NUTS with 4 chains of `draws` draws (the default warm-up), seed 1: counters kl
//                (of the draws' mean and covariance) and seconds (wall, the chains in parallel).
//                The smallest draws with kl < 0.05 is NUTS's time to that accuracy.
//
// Plain EP needs more than D + 2 = 9 draws per update; it runs with 20 and fewer iterations.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <string>

#include "pvi/pvi.hpp"
#include "runtime/families/Gaussian.hpp"

namespace {

const pvi::BoundModel& contraception() {
  static const pvi::BoundModel model = [] {
    const std::string dir = std::string(PVI_SOURCE_DIR) + "/examples/hierarchical_logistic/";
    pvi::DataSources data;
    data.sharedJson = dir + "data.json";
    data.partitionCsv = dir + "data_per_district.csv";
    return pvi::Model::fromFile(dir + "model.pvi").bind(data);
  }();
  return model;
}

const pvi::FullStandard& reference() {
  static const pvi::FullStandard ref = [] {
    pvi::FitOptions o;
    o.algorithm = pvi::Algorithm::Nuts;
    o.sampling.draws = 5000;
    o.seed = 2026;
    const pvi::Posterior p = contraception().fit(o);
    return pvi::FullStandard{p.mean(), p.covariance()};
  }();
  return ref;
}

void Pareto(benchmark::State& state, pvi::Algorithm a, double stepFactor) {
  const pvi::FullStandard& ref = reference();
  double klFinal = 0, stepsTo = 0, secondsTo = 0, steps = 0, rate = 0;
  for (auto _ : state) {
    pvi::FitOptions o;
    o.algorithm = a;
    o.seed = 1;
    o.threads = 2;
    o.ep.referenceMean = ref.m;
    o.ep.referenceCovariance = ref.S;
    const double sites = 60.0;
    if (a == pvi::Algorithm::Ep) {
      o.ep.samples = 20;
      o.rounds = 300;
      o.ep.step = 0.5 * stepFactor;
    } else {
      o.ep.step = 0.1 / sites * stepFactor;
      o.ep.startStep = std::max(o.ep.step, 0.5 / sites);
    }
    const pvi::Posterior p = contraception().fit(o);
    const pvi::FitResult& r = p.result();
    klFinal = r.usable ? pvi::kl(pvi::FullStandard{p.mean(), p.covariance()}, ref) : INFINITY;
    stepsTo = secondsTo = 0;
    for (const auto& rec : r.trace)
      if (rec.metrics.at("kl_to_reference") < 0.05) {
        stepsTo = rec.metrics.at("sampler_steps");
        secondsTo = rec.seconds;
        break;
      }
    steps = r.trace.empty() ? 0 : r.trace.back().metrics.at("sampler_steps");
    rate = steps / r.seconds / sites * 2.0;
  }
  state.counters["kl_final"] = klFinal;
  state.counters["steps_to_kl05"] = stepsTo;
  state.counters["s_to_kl05"] = secondsTo;
  state.counters["sampler_steps"] = steps;
  state.counters["steps_per_s_per_site"] = rate;
}

void NutsToKl(benchmark::State& state, std::size_t draws) {
  const pvi::FullStandard& ref = reference();
  double klValue = 0, seconds = 0;
  for (auto _ : state) {
    pvi::FitOptions o;
    o.algorithm = pvi::Algorithm::Nuts;
    o.sampling.draws = draws;
    o.seed = 1;
    const auto start = std::chrono::steady_clock::now();
    const pvi::Posterior p = contraception().fit(o);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    klValue = pvi::kl(pvi::FullStandard{p.mean(), p.covariance()}, ref);
  }
  state.counters["kl"] = klValue;
  state.counters["seconds"] = seconds;
}

void registerAll() {
  for (const auto& [name, a] : {std::pair{"ep", pvi::Algorithm::Ep}, std::pair{"ep-eta", pvi::Algorithm::EpEta},
                                std::pair{"ep-mu", pvi::Algorithm::EpMu}})
    for (double f : {0.5, 1.0, 2.0})
      benchmark::RegisterBenchmark(("Pareto/" + std::string(name) + "/x" + std::to_string(f).substr(0, 3)).c_str(),
                                   Pareto, a, f)
          ->Iterations(1)
          ->Unit(benchmark::kSecond);
  for (std::size_t draws : {25, 50, 100, 200, 400})
    benchmark::RegisterBenchmark(("NutsToKl/" + std::to_string(draws)).c_str(), NutsToKl, draws)
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
}

}  // namespace

int main(int argc, char** argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
