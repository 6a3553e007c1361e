#include "runtime/samplers/nuts/Sampler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>

#include "runtime/families/StandardNormal.hpp"
#include "runtime/samplers/nuts/InitialStepSize.hpp"
#include "runtime/support/Seeds.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi::samplers {

namespace {

constexpr std::uint64_t kNutsStream = 0x4E555453;  // "NUTS"
constexpr int kInitAttempts = 100;                 // as Stan

void checkOptions(const Target& target, const SamplerOptions& o) {
  if (target.dim == 0) throw std::invalid_argument("the model has no parameters to sample");
  if (!target.logDensity) throw std::invalid_argument("the target has no log density");
  if (o.chains == 0) throw std::invalid_argument("--chains must be at least 1");
  if (o.samples == 0) throw std::invalid_argument("--samples must be at least 1");
  if (o.nuts.maxDepth == 0 || o.nuts.maxDepth > 30)
    throw std::invalid_argument("--max-depth must be between 1 and 30, got " + std::to_string(o.nuts.maxDepth));
  const double delta = o.dualAveraging.delta;
  if (!(delta > 0.0 && delta < 1.0))
    throw std::invalid_argument("--adapt-delta must be in (0, 1), got " + std::to_string(delta));
  if (!(o.initialStepSize > 0.0) || !std::isfinite(o.initialStepSize))
    throw std::invalid_argument("the initial step size must be positive and finite");
  if (!(o.initRadius >= 0.0) || !std::isfinite(o.initRadius))
    throw std::invalid_argument("the initialisation radius must be non-negative and finite");
  if (o.adaptation == Adaptation::Fisher && o.metric == MetricKind::Dense)
    throw std::invalid_argument(
        "the Fisher adaptation estimates a diagonal metric; use --adaptation windowed for "
        "--metric dense");
  for (const GaussianStart& g : o.initMixture) {
    if (static_cast<std::size_t>(g.mean.size()) != target.dim || g.root.rows() != g.mean.size() ||
        g.root.cols() != g.mean.size())
      throw std::invalid_argument("the initial distribution's mean or root does not match dimension " +
                                  std::to_string(target.dim));
    if (!(g.weight >= 0.0) || !std::isfinite(g.weight))
      throw std::invalid_argument("the initial distribution's weights must be non-negative and finite");
  }
  if (o.init && static_cast<std::size_t>(o.init->size()) != target.dim)
    throw std::invalid_argument("the initial point has " + std::to_string(o.init->size()) + " entries, expected " +
                                std::to_string(target.dim));
}

}  // namespace

std::size_t startComponent(const std::vector<GaussianStart>& mixture, std::size_t chain, std::size_t chains) {
  double total = 0.0;
  for (const GaussianStart& g : mixture) total += g.weight;
  const double target = (static_cast<double>(chain) - 0.5) / static_cast<double>(std::max<std::size_t>(chains, 1));
  double cumulative = 0.0;
  for (std::size_t k = 0; k < mixture.size(); ++k) {
    cumulative += total > 0.0 ? mixture[k].weight / total : 1.0 / static_cast<double>(mixture.size());
    if (target <= cumulative) return k;
  }
  return mixture.size() - 1;
}

namespace {

// Stan's initialisation: uniform in [-R, R]^d until log p and its gradient are finite.
void initialise(const Target& target, const Nuts& nuts, const SamplerOptions& o, PhasePoint& z, std::mt19937_64& rng,
                std::size_t chain, std::size_t& gradients) {
  // What the target says of the last point tried, when it can tell.
  const auto why = [&] {
    const std::string reason = target.whyNotFinite ? target.whyNotFinite() : std::string();
    return reason.empty() ? std::string() : "; at the last point tried, " + reason;
  };
  for (int attempt = 0; attempt < kInitAttempts; ++attempt) {
    if (o.init) {
      z.q = *o.init;
    } else if (!o.initMixture.empty()) {
      const GaussianStart& g = o.initMixture[startComponent(o.initMixture, chain, o.chains)];
      z.q = g.mean + g.root * standardNormals(g.mean.size(), 1, rng).col(0);
    } else {
      for (Eigen::Index i = 0; i < z.q.size(); ++i) z.q[i] = o.initRadius * (2.0 * support::uniform01(rng) - 1.0);
    }
    nuts.evaluate(z);
    ++gradients;
    if (std::isfinite(z.logDensity) && z.gradient.allFinite()) return;
    if (o.init)
      throw SamplerError("chain " + std::to_string(chain) +
                         ": the log density or its gradient is not finite at the given initial point" + why());
  }
  if (!o.initMixture.empty())
    throw SamplerError("chain " + std::to_string(chain) +
                       ": no starting point with a finite log density and gradient in " +
                       std::to_string(kInitAttempts) + " draws from the initial distribution" + why());
  throw SamplerError("chain " + std::to_string(chain) +
                     ": no starting point with a finite log density and gradient in " + std::to_string(kInitAttempts) +
                     " attempts uniformly in [-" + std::to_string(o.initRadius) + ", " + std::to_string(o.initRadius) +
                     "] on the unconstrained scale" + why());
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Thrown by a chain that stops because another chain failed.
struct ChainCancelled {};

// One chain; it stops (ChainCancelled) at its next iteration once `cancelled` is set.
ChainResult runChainUntil(const Target& target, const SamplerOptions& o, std::size_t chain,
                          const ProgressCallback& progress, const std::atomic<bool>* cancelled) {
  checkOptions(target, o);
  std::mt19937_64 rng(support::deriveSeed(o.seed, kNutsStream, chain));
  const auto d = static_cast<Eigen::Index>(target.dim);
  Nuts nuts(target, o.nuts);
  ChainResult r;
  r.chain = chain;
  r.metric = EuclideanMetric(d, o.metric);
  PhasePoint z(d);

  const auto t0 = std::chrono::steady_clock::now();
  initialise(target, nuts, o, z, rng, chain, r.warmupGradients);
  std::unique_ptr<MetricAdaptation> adaptation = o.adaptation == Adaptation::Fisher
                                                     ? makeFisherAdaptation(o.warmup, o.fisher)
                                                     : makeWindowedAdaptation(o.warmup, o.windows);
  StepSizeAdaptation dualAveraging(o.dualAveraging);
  double eps = o.initialStepSize;
  const std::size_t total = o.warmup + o.samples;
  const std::size_t refresh = std::max<std::size_t>(1, total / 100);
  const auto report = [&](std::size_t iteration) {
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) throw ChainCancelled{};
    if (progress && (iteration % refresh == 0 || iteration == total))
      progress({chain, iteration, o.warmup, o.samples, r.warmupDivergences + r.divergences});
  };
  if (o.warmup > 0) {
    adaptation->start(z, r.metric);
    eps = initialStepSize(nuts, z, r.metric, eps, rng, r.warmupGradients);
    dualAveraging.restart(eps);
  }
  for (std::size_t i = 0; i < o.warmup; ++i) {
    const TransitionStats s = nuts.transition(z, r.metric, eps, rng);
    r.warmupGradients += s.leapfrogs;
    r.warmupDivergences += s.divergent ? 1 : 0;
    eps = dualAveraging.learn(s.acceptStat);
    const AdaptationStep step = adaptation->observe(i, z, r.metric);
    if (step.restartStepSize) {
      eps = initialStepSize(nuts, z, r.metric, eps, rng, r.warmupGradients);
      dualAveraging.restart(eps);
    }
    report(i + 1);
  }
  if (o.warmup > 0) eps = dualAveraging.final();
  r.stepSize = eps;
  r.warmupSeconds = secondsSince(t0);

  const auto t1 = std::chrono::steady_clock::now();
  const auto n = static_cast<Eigen::Index>(o.samples);
  r.draws.resize(n, d);
  SamplerColumns& c = r.columns;
  for (Eigen::VectorXd* v : {&c.logDensity, &c.acceptStat, &c.stepSize, &c.energy}) v->resize(n);
  for (Eigen::VectorXi* v : {&c.treeDepth, &c.leapfrogs, &c.divergent}) v->resize(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const TransitionStats s = nuts.transition(z, r.metric, eps, rng);
    r.draws.row(k) = z.q.transpose();
    c.logDensity[k] = s.logDensity;
    c.acceptStat[k] = s.acceptStat;
    c.stepSize[k] = eps;
    c.energy[k] = s.energy;
    c.treeDepth[k] = static_cast<int>(s.treeDepth);
    c.leapfrogs[k] = static_cast<int>(s.leapfrogs);
    c.divergent[k] = s.divergent ? 1 : 0;
    r.samplingGradients += s.leapfrogs;
    r.divergences += s.divergent ? 1 : 0;
    r.treeDepthHits += s.treeDepth >= o.nuts.maxDepth ? 1 : 0;
    report(o.warmup + static_cast<std::size_t>(k) + 1);
  }
  r.samplingSeconds = secondsSince(t1);
  return r;
}

}  // namespace

ChainResult runChain(const Target& target, const SamplerOptions& o, std::size_t chain,
                     const ProgressCallback& progress) {
  return runChainUntil(target, o, chain, progress, nullptr);
}

std::vector<ChainResult> sample(const Target& target, const SamplerOptions& o, const ProgressCallback& progress) {
  checkOptions(target, o);
  std::size_t threads = support::threadsFor(o.threads);
  threads = std::min(threads, o.chains);
  std::vector<ChainResult> results;
  if (threads == 1) {
    for (std::size_t c = 1; c <= o.chains; ++c) results.push_back(runChain(target, o, c, progress));
    return results;
  }
  // A chain that fails stops the others at their next iteration; its error is the one reported.
  std::atomic<bool> cancelled{false};
  support::ThreadPool pool(threads);
  std::vector<std::future<ChainResult>> futures;
  for (std::size_t c = 1; c <= o.chains; ++c)
    futures.push_back(pool.submit([&, c] {
      try {
        return runChainUntil(target, o, c, progress, &cancelled);
      } catch (const ChainCancelled&) {
        throw;
      } catch (...) {
        cancelled = true;
        throw;
      }
    }));
  std::exception_ptr failure;
  for (auto& f : futures) {
    try {
      results.push_back(f.get());
    } catch (const ChainCancelled&) {
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace pvi::samplers
