#pragma once
// What a user chooses when fitting a model (`pvic run`, `./model fit`, the embedding API), with
// the defaults they get when they choose nothing. 0 / empty means "pick for me".
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/families/ConditionalGaussian.hpp"
#include "runtime/samplers/nuts/Metric.hpp"
#include "runtime/samplers/nuts/MetricAdaptation.hpp"

namespace pvi {

enum class Algorithm { Auto, Pvi, Nuts, Sfvi, SfviAvg, Ep, EpEta, EpMu };

// "auto", "pvi", "nuts", "sfvi", "sfvi-avg", "ep", "ep-eta", "ep-mu"; parseAlgorithm throws
// std::invalid_argument naming the accepted values.
std::string algorithmName(Algorithm a);
Algorithm parseAlgorithm(const std::string& name);
const std::vector<std::string>& algorithmNames();

// PVI's schedule (runtime/federation/schedules/) and the Gaussian family of q(z)
// (runtime/families/). Names as on the command line: "synchronous", "sequential"; "full",
// "mean-field". The parse functions throw std::invalid_argument naming the accepted values.
enum class ScheduleKind { Synchronous, Sequential };
enum class FamilyKind { Full, MeanField };
std::string scheduleName(ScheduleKind s);
ScheduleKind parseSchedule(const std::string& name);
const std::vector<std::string>& scheduleNames();
std::string familyName(FamilyKind f);
FamilyKind parseFamily(const std::string& name);
const std::vector<std::string>& familyNames();

// The shape of each partition's q(w_j | z) (runtime/families/ConditionalGaussian.hpp):
//   "structured"           w_j's mean moves with z (C_j), its log sds too (G_j), L_j unit-lower-triangular;
//   "structured-diagonal"  C_j and G_j, L_j = I;
//   "skewed"               structured-diagonal with a sinh-arcsinh shape per local (SinhArcsinh.hpp);
//   "gaussian"             the SFVI paper's family: C_j and L_j, sds independent of z (joint Gaussian);
//   "independent"          q(w_j) ignores z: the mean-field locals of plain PVI.
enum class LocalsKind { Structured, StructuredDiagonal, Skewed, Gaussian, Independent };
ConditionalShape localShapeOf(LocalsKind l);
std::string localsName(LocalsKind l);
LocalsKind parseLocals(const std::string& name);
const std::vector<std::string>& localsNames();

// NUTS's metric ("diag", "dense": Stan's diag_e and dense_e) and its warm-up estimate ("fisher",
// "windowed"; runtime/samplers/nuts/MetricAdaptation.hpp).
std::string metricName(samplers::MetricKind m);
samplers::MetricKind parseMetric(const std::string& name);
const std::vector<std::string>& metricNames();
std::string adaptationName(samplers::Adaptation a);
samplers::Adaptation parseAdaptation(const std::string& name);
const std::vector<std::string>& adaptationNames();

// NUTS (`--algorithm nuts`, docs/sampling.md). The seed and threads are FitOptions'.
struct SamplingOptions {
  std::size_t chains = 4;
  std::optional<std::size_t> warmup;  // empty: the adaptation's default (kDefaultWarmup)
  std::size_t draws = 1000;           // per chain, after warm-up
  std::size_t maxDepth = 10;
  double adaptDelta = 0.8;
  samplers::MetricKind metric = samplers::MetricKind::Diagonal;
  samplers::Adaptation adaptation = samplers::Adaptation::Fisher;
};
// Warm-up iterations per chain when none are given: Stan's 1000 for its windowed adaptation; the
// Fisher adaptation settles sooner (docs/sampling.md has the measurements).
std::size_t defaultWarmup(samplers::Adaptation a);

// EP, EP-eta and EP-mu (`--algorithm ep|ep-eta|ep-mu`, docs/fitting.md). 0 means "pick for me".
struct EpFitOptions {
  double step = 0.0;  // --ep-step: alpha for ep, eps for ep-eta and ep-mu; 0: auto
  // --ep-start-step: the step of the first iterations, falling geometrically to `step` over the
  // first tenth of them (the warm-up, whose moments come from the draws themselves; after it
  // they come from Stein's identity, algorithms/ep/SampledSites.hpp); 0: auto.
  double startStep = 0.0;
  std::size_t samples = 0;  // --ep-samples: tilted draws per site update (n_samp); 0: auto
  std::size_t inner = 1;    // --ep-inner: site sweeps per refresh of theta (n_inner)
  double power = 1.0;       // --ep-power: beta of every site (1: EP; other values: power EP)
  // --ep-restart: each site's chain restarts its z from a draw of the current approximation at
  // every re-adaptation (every `readaptEvery` updates, followed by `adaptTransitions` transitions
  // of step-size adaptation that also serve as burn-in). Off by default: on the contraception
  // example it cost 43% more sampler steps for the same accuracy (docs/fitting.md, "EP").
  bool restart = false;
  // Re-adaptation: every 250 updates, 50 transitions (20% on top of the draws; every 100 with
  // 100 doubled the sampler's work for the same accuracy on the contraception example).
  std::size_t readaptEvery = 250;
  std::size_t adaptTransitions = 50;
  std::size_t localDraws = 0;  // draws per site for its locals' q(w | z) at the end; 0: auto
  // A Gaussian over z (unconstrained) to trace KL(q || reference) against every iteration, e.g.
  // the moments of a long NUTS run (empty: none).
  Eigen::VectorXd referenceMean;
  Eigen::MatrixXd referenceCovariance;
};

struct FitOptions {
  Algorithm algorithm = Algorithm::Auto;
  std::optional<ScheduleKind> schedule;    // empty: auto
  std::optional<FamilyKind> family;        // empty: auto
  std::optional<LocalsKind> locals;        // empty: auto (AlgorithmChoice.hpp)
  std::optional<bool> skewedGlobals;       // sfvi: a skewed q(z) (families/GlobalShape.hpp); empty: auto
  std::size_t rounds = 0;                  // the most communication rounds; 0: auto
  std::optional<std::size_t> roundBudget;  // a hard cap the user gives (auto takes it into account)
  double damping = 0.0;                    // rho in (0, 1]; 0: auto
  double tolerance = 1e-3;                 // stop when a round changes q by at most this (relative)
  // Stop when the ELBO has not risen by more than 2 standard errors above its best for this many
  // rounds (0: never). Monte Carlo noise keeps the change of q above `tolerance` on most models.
  // 3 since contraception's SFVI fit spent 4 of its 15 rounds confirming two plateaus at 5 (seeds
  // 1-3: 11 rounds at 3, errors against Stan 0.045-0.051 sd and sd ratios within 7%, against 15-19
  // rounds and 0.039-0.058 sd, 5% at 5; docs/fitting.md, "Stopping").
  std::size_t patience = 3;
  // Start q at the Laplace approximation at the joint mode (federation/LaplaceStart.hpp) where
  // the model allows it, and at N(0, initialSd^2 I) with local latents (IsotropicStart.hpp);
  // false: at the prior (every client factor flat).
  bool laplaceStart = true;
  std::size_t localSteps = 300;          // the most Adam steps per client update (it stops sooner, Fit.cpp)
  std::size_t iterationsPerRound = 100;  // sfvi: iterations (server steps) per round
  // sfvi, sfvi-avg (and pvi with locals): q(z) and every q(w | z) start at N(0, initialSd^2 I)
  // on the unconstrained scale. Networks need a small one (0.1): with sd 1 every weight draw is
  // noise, and the gradient of the means drowns in it.
  double initialSd = 1.0;
  double learningRate = 0.05;
  std::size_t samples = 8;  // Monte Carlo draws per Adam step
  // sfvi, sfvi-avg: draws of each partition's locals per draw of z, importance-weighted (Sfvi.hpp,
  // innerDraws); 1: the plain ELBO; 0: auto (AlgorithmChoice.cpp).
  std::size_t innerDraws = 0;
  // sfvi, sfvi-avg: draw those locals from each z's Laplace proposal instead of q(w | z)
  // (estimation/LaplaceLocals.hpp); empty: auto (AlgorithmChoice.cpp).
  std::optional<bool> laplaceLocals;
  // sfvi: when the ELBO stops rising with fewer draws per iteration than this, double them and go
  // on (Sfvi.hpp, refineSamples); pvi: the clients' draws per step instead of `samples`. 0: auto
  // (AlgorithmChoice.cpp), 16 x samples with more than 64 locals in a partition, else off; at
  // most `samples`: off.
  std::size_t refineSamples = 0;
  std::size_t threads = 0;  // clients run in parallel on this many threads; 0: all cores
  std::uint64_t seed = 1;
  std::size_t elboSamples = 64;  // per client, for the ELBO estimate of each round
  std::vector<double> theta;     // fixed hyperparameters (unconstrained); empty: zeros
  SamplingOptions sampling;      // --algorithm nuts
  EpFitOptions ep;               // --algorithm ep, ep-eta, ep-mu
};

}  // namespace pvi
