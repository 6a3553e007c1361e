#pragma once
// NUTS chains end to end: a starting point, warm-up (step size by dual averaging, metric by the
// chosen adaptation), then the draws, for several chains on threads. Chain c draws from its own
// stream deriveSeed(seed, "NUTS", c), so the draws depend on the seed alone, whatever the number
// of threads. docs/sampling.md describes the options and the output.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "runtime/samplers/nuts/Metric.hpp"
#include "runtime/samplers/nuts/MetricAdaptation.hpp"
#include "runtime/samplers/nuts/Nuts.hpp"
#include "runtime/samplers/nuts/SamplerError.hpp"
#include "runtime/samplers/nuts/StepSizeAdaptation.hpp"
#include "runtime/samplers/nuts/Target.hpp"

namespace pvi::samplers {

// One component of the initial distribution: N(mean, root root^T) with a relative weight.
struct GaussianStart {
  double weight = 1.0;
  Eigen::VectorXd mean;
  Eigen::MatrixXd root;
};

// The component chain c (1-based) of `chains` starts in: stratified by the weights, so that chain
// c takes the first component where the cumulative weight reaches (c - 1/2) / chains. Modes of
// similar mass share the chains; a mode with a negligible weight gets none.
std::size_t startComponent(const std::vector<GaussianStart>& mixture, std::size_t chain, std::size_t chains);

struct SamplerOptions {
  std::size_t chains = 4;
  std::size_t warmup = 1000;
  std::size_t samples = 1000;
  std::size_t threads = 0;  // chains run on this many threads; 0: one per chain, at most the cores
  std::uint64_t seed = 1;
  NutsOptions nuts;
  DualAveragingOptions dualAveraging;
  MetricKind metric = MetricKind::Diagonal;
  Adaptation adaptation = Adaptation::Fisher;
  WindowOptions windows;
  FisherOptions fisher;
  double initialStepSize = 1.0;
  // Chains start uniformly in [-initRadius, initRadius]^dim (Stan's default, 2), or at `init`, or
  // at independent draws from a mixture of Gaussians (Laplace approximations at the modes found:
  // each chain from its own stream, redrawn until the density is finite).
  double initRadius = 2.0;
  std::optional<Eigen::VectorXd> init;
  std::vector<GaussianStart> initMixture;
};

// One row per draw: lp__ and Stan's sampler columns.
struct SamplerColumns {
  Eigen::VectorXd logDensity, acceptStat, stepSize, energy;
  Eigen::VectorXi treeDepth, leapfrogs, divergent;
};

struct ChainResult {
  std::size_t chain = 1;  // 1-based, as CmdStan's id
  Eigen::MatrixXd draws;  // samples x dim, unconstrained
  SamplerColumns columns;
  double stepSize = 0.0;   // after warm-up
  EuclideanMetric metric;  // after warm-up
  std::size_t warmupGradients = 0, samplingGradients = 0;
  std::size_t warmupDivergences = 0, divergences = 0, treeDepthHits = 0;
  double warmupSeconds = 0.0, samplingSeconds = 0.0;
};

// Where a chain is, reported about a hundred times per chain (from the chain's own thread).
struct ChainProgress {
  std::size_t chain = 1;
  std::size_t iteration = 0;  // 1 .. warmup + samples
  std::size_t warmup = 0, samples = 0;
  std::size_t divergences = 0;  // so far, warm-up and sampling
};
using ProgressCallback = std::function<void(const ChainProgress&)>;

// Throws std::invalid_argument for bad options, SamplerError when a chain cannot start or its
// step size runs away, and whatever the target throws.
std::vector<ChainResult> sample(const Target& target, const SamplerOptions& options,
                                const ProgressCallback& progress = {});

// One chain (what sample() runs per chain).
ChainResult runChain(const Target& target, const SamplerOptions& options, std::size_t chain,
                     const ProgressCallback& progress = {});

}  // namespace pvi::samplers
