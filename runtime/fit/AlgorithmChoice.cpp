#include "runtime/fit/AlgorithmChoice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace pvi {

namespace {

// Above this global dimension a full covariance costs too much per message (D(D+3)/2 numbers)
// and per local step (a D x D Cholesky), so auto uses the mean-field family.
constexpr std::size_t kFullCovarianceMaxDim = 200;
// "A small global dimension" in the design's rule: EP-mu would be preferred below it. Auto keeps
// SFVI: on the three hierarchical examples where both run (contraception, Six Cities, the EP
// paper's logistic regression) SFVI's means and sds are as close to Stan's as EP-mu's or closer,
// in the same time or less (docs/fitting.md, "`auto` and EP"); auto's line names EP-mu.
constexpr std::size_t kSmallGlobalDim = 20;
constexpr std::size_t kDefaultRounds = 30;
// SFVI with many locals in a partition (above kCorrelatedLocalsMaxDim) refines its draws per
// iteration after each plateau, up to this many times --samples (Sfvi.hpp, refineSamples): each
// local adds its own noise to the gradient over q(z), which narrows q(z) without moving the ELBO.
// It needs more rounds: Six Cities plateaus at about 20 rounds with 8 draws, then 4 doublings of
// 6 rounds. With a few locals per partition (contraception: 2) the refinement gains nothing
// measurable (tau's sd 0.906 of Stan's against 0.918) for 9 times the time, so it is off there.
constexpr std::size_t kRefineFactor = 16;
constexpr std::size_t kSfviRefinedRounds = 100;
// EP: iterations (one sweep over the sites, one message each way per site), and the default
// steps: plain EP's damping alpha, and EP-eta's and EP-mu's eps with one draw per update, chosen
// on the contraception and Six Cities examples (docs/fitting.md, "EP").
constexpr std::size_t kDefaultEpIterations = 3000;
constexpr double kDefaultEpDamping = 0.5;
// EP-eta's and EP-mu's eps: c / J for J sites. Each site's update carries noise of the size of
// the whole posterior whatever its share of the data, so theta's noise grows with the number of
// sites. The warm-up's larger step gets near the fixed point first, while every cavity keeps
// more than half of the approximation's precision (runtime/fit/FitEp.cpp, kEpStartMargin): on the
// EP paper's hierarchical logistic regression (16 sites) one sweep at 0.5 / J already leaves a
// cavity keeping 0.05 of it, and continuing lost the cavities within 40 iterations in most runs.
constexpr double kEpStepPerSite = 0.1, kEpStartStepPerSite = 0.5;
// Both divided, and the iterations multiplied, by sqrt(dw / 16) for dw > 16 locals per site: a
// site's chain over many locals mixes slowly, its consecutive draws repeat one another, and the
// noise of the updates grows with their autocorrelation. On Six Cities (2 sites of up to 300
// locals) eps 0.1 falling to 0.02 over 3,000 iterations swung the means by 0.2 sd between
// quarters and missed Stan's by up to 0.16 sd; 0.023 falling to 0.0046 over 13,000 iterations
// missed by 0.066-0.071 sd (seeds 1-3; docs/fitting.md, "EP").
constexpr double kEpManyLocals = 16.0;
// The iterations are multiplied by the larger of that factor and sqrt(64 / J) (1 to 4): the
// averaged approximation's noise is each site's noise over the J sites, so fewer sites need a
// longer average. On the EP paper's hierarchical logistic regression (16 sites) 3,000 iterations
// left the averages of the last two quarters 0.13-0.35 sd apart (seeds 1-4).
constexpr double kEpAveragingSites = 64.0;
bool isEp(Algorithm a) { return a == Algorithm::Ep || a == Algorithm::EpEta || a == Algorithm::EpMu; }
// Up to this many locals per partition, q(w_j | z) gets a unit-lower-triangular L_j (dw(dw - 1)/2
// parameters, O(dw^2) work per draw); beyond it L_j = I with a sinh-arcsinh shape per local
// (`skewed`). Locals of different groups inside one partition (children in a city) are
// conditionally independent in the posterior anyway, and such many small groups are where a
// Gaussian q(w | z) biases the globals (Six Cities: omega 1.3 sds high; docs/fitting.md).
constexpr std::size_t kCorrelatedLocalsMaxDim = 64;
// Above this many numbers in a partition's coupling C_j (dw x D; G_j is as large, and Adam keeps
// two more copies of each), q(w_j | z) is independent of z: a Bayesian neural network's
// thousands of locals and globals would need gigabytes per partition.
constexpr std::uint64_t kCouplingMaxNumbers = std::uint64_t{1} << 20;
// Importance-weighted locals (sfvi, sfvi-avg): K draws of w_j per draw of z where every partition
// has at most kInnerDrawsMaxLocalDim locals (a random intercept and slope per group). There the
// bound tightens where q(w_j | z) misses p(w_j | z, y_j) (random slope per district: tau_urban's
// sd 0.65-0.81 of Stan's with K = 1, 0.86-0.93 with 8; docs/fitting.md). With hundreds of locals
// per partition the log weights' variance grows with their number, so K draws barely tighten
// the bound and cost K times the evaluations (Six Cities, 300 children per silo: 13 s, 120 s).
// Those draws come from each z's Laplace proposal (estimation/LaplaceLocals.hpp: Newton's mode
// and curvature of p(w_j | z, y_j), a few gradient evaluations per draw with so few locals), and
// q(z) is skewed: the bound is then close to log p(y_j | z) even where q(w_j | z), linear in z,
// misses the shrinking slopes, and q(z) can follow a scale's long left tail. Random slope per
// district, seeds 1-3: tau_urban +0.15 to +0.22 sd with q's draws and a Gaussian q(z); +0.11 to
// +0.14 with a skewed q(z) alone; +0.02 to +0.04 with both (docs/fitting.md).
constexpr std::size_t kInnerDrawsMaxLocalDim = 8;
constexpr std::size_t kAutoInnerDraws = 8;

std::string notImplemented(Algorithm a) {
  return "algorithm '" + algorithmName(a) +
         "' is not implemented yet; use --algorithm pvi (or auto, which picks among implemented algorithms)";
}

// Copies of a factor's parameters the fit holds at least: the server's copy of each of the
// partitions + 1 factors, each partition's own copy of its factor, and the posterior.
std::uint64_t factorCopies(const ModelShape& shape) { return 2 * static_cast<std::uint64_t>(shape.partitions) + 2; }

// Refuses a family whose state cannot fit in memory, suggesting mean-field for full.
void checkFamilyFits(FamilyKind family, const ModelShape& shape, const MemoryLimit& memory) {
  const std::optional<std::uint64_t> numbers = familyStateNumbers(family, shape);
  if (!memory.exceededBy(numbers)) return;
  const std::uint64_t d = shape.globalDim;
  const std::string each = family == FamilyKind::Full
                               ? "a " + groupedNumber(d) + " x " + groupedNumber(d) + " covariance matrix (" +
                                     byteSizeText(static_cast<long double>(d) * d * kBytesPerElement) + ")"
                               : "2 x " + groupedNumber(d) + " numbers";
  std::string message = std::string("the ") + (family == FamilyKind::Full ? "full-covariance" : "mean-field") +
                        " Gaussian family over " + groupedNumber(d) + " global dimensions needs " + each +
                        " in each of the " + std::to_string(factorCopies(shape)) +
                        " copies of a factor the fit holds at least (the server's " +
                        std::to_string(shape.partitions + 1) + " factors, each partition's own, the posterior): " +
                        (numbers ? byteSizeText(static_cast<long double>(*numbers) * kBytesPerElement)
                                 : std::string("more than 16 EiB")) +
                        ", more than " + memory.text();
  if (family == FamilyKind::Full && !memory.exceededBy(familyStateNumbers(FamilyKind::MeanField, shape)))
    message += "; use the mean-field family (--family mean-field), which needs 2 x " + groupedNumber(d) +
               " numbers per factor";
  throw FitConfigurationError(message);
}

// "60 partitions", or for a model without @partition (all its data shared) "one partition (the
// whole model: it has no @partition)".
std::string partitionsText(const ModelShape& shape) {
  if (shape.partitions == 0) return "one partition (the whole model: it has no @partition)";
  return std::to_string(shape.partitions) + (shape.partitions == 1 ? " partition" : " partitions");
}

// NUTS over every latent: its options checked, and its draws (chains x draws x dimension, and a
// dense metric's dim x dim matrices) checked against memory before it runs.
AlgorithmChoice chooseNuts(const ModelShape& shape, const FitOptions& o, const MemoryLimit& memory) {
  const SamplingOptions& s = o.sampling;
  if (s.chains == 0) throw FitConfigurationError("--chains must be at least 1");
  if (s.draws == 0) throw FitConfigurationError("--draws must be at least 1");
  if (s.maxDepth == 0 || s.maxDepth > 30)
    throw FitConfigurationError("--max-depth must be between 1 and 30, got " + std::to_string(s.maxDepth));
  if (!(s.adaptDelta > 0.0 && s.adaptDelta < 1.0))
    throw FitConfigurationError("--adapt-delta must be in (0, 1), got " + std::to_string(s.adaptDelta));
  if (s.adaptation == samplers::Adaptation::Fisher && s.metric == samplers::MetricKind::Dense)
    throw FitConfigurationError(
        "the fisher adaptation estimates a diagonal metric; use --adaptation windowed with --metric dense");
  if (!o.theta.empty())
    throw FitConfigurationError("nuts samples the hyperparameters with their priors; --theta fixes them for pvi only");
  const std::uint64_t dim = shape.globalDim + shape.localDim + shape.hyperDim;
  std::optional<std::uint64_t> numbers = checkedMultiply(dim, s.draws);
  if (numbers) numbers = checkedMultiply(*numbers, s.chains);
  if (numbers && s.metric == samplers::MetricKind::Dense) {
    const std::optional<std::uint64_t> dense = checkedMultiply(dim, dim);
    numbers = dense ? checkedMultiply(*dense, 2 * s.chains) : std::nullopt;  // M^{-1} and its Cholesky factor
  }
  if (memory.exceededBy(numbers))
    throw FitConfigurationError(std::to_string(s.chains) + " chains of " + groupedNumber(s.draws) + " draws of " +
                                groupedNumber(dim) + " unconstrained parameters need more than " + memory.text() +
                                "; ask for fewer --draws or --chains");
  AlgorithmChoice c;
  c.algorithm = Algorithm::Nuts;
  const std::size_t warmup = s.warmup ? *s.warmup : defaultWarmup(s.adaptation);
  std::ostringstream why;
  why << "nuts as requested (" << s.chains << " chains of " << warmup << " warm-up and " << s.draws << " draws over "
      << dim << " parameters: " << shape.globalDim << " global, " << shape.localDim << " local in "
      << partitionsText(shape) << ", " << shape.hyperDim << " hyperparameters; " << metricName(s.metric)
      << " metric by " << adaptationName(s.adaptation) << " adaptation)";
  c.reason = why.str();
  return c;
}

// EP, EP-eta, EP-mu over the partitions as sites (FitEp.cpp): full-covariance Gaussian over z,
// hyperparameters fixed.
AlgorithmChoice chooseEp(const ModelShape& shape, const FitOptions& o, const MemoryLimit& memory, bool automatic) {
  const EpFitOptions& e = o.ep;
  const std::string name = algorithmName(automatic ? Algorithm::EpMu : o.algorithm);
  const Algorithm a = automatic ? Algorithm::EpMu : o.algorithm;
  if (o.family && *o.family != FamilyKind::Full)
    throw FitConfigurationError(name + " approximates the globals with a full-covariance Gaussian; drop --family " +
                                familyName(*o.family));
  if (shape.partitions == 0)
    throw FitConfigurationError(name +
                                " has one site per partition, and the model has no @partition; use nuts, or pvi");
  if (shape.hyperDim > 0 && o.theta.empty())
    throw FitConfigurationError(name + " does not learn hyperparameters: fix the model's " +
                                std::to_string(shape.hyperDim) + " with --theta, or use sfvi or pvi, which learn them");
  if (!o.theta.empty() && o.theta.size() != shape.hyperDim)
    throw FitConfigurationError("the model has " + std::to_string(shape.hyperDim) + " hyperparameters, but " +
                                std::to_string(o.theta.size()) + " values were given");
  if (!(e.step >= 0.0 && e.step <= 1.0))
    throw FitConfigurationError("--ep-step must be in (0, 1], got " + std::to_string(e.step));
  if (!(e.power > 0.0) || !std::isfinite(e.power))
    throw FitConfigurationError("--ep-power must be a positive number, got " + std::to_string(e.power));
  if (e.inner == 0) throw FitConfigurationError("--ep-inner must be at least 1");
  if (e.readaptEvery == 0 || e.adaptTransitions == 0)
    throw FitConfigurationError("the tilted samplers' re-adaptation period and length must be positive");
  const std::size_t d = shape.globalDim;
  AlgorithmChoice c;
  c.algorithm = a;
  c.family = FamilyKind::Full;
  checkFamilyFits(c.family, shape, memory);
  c.samples = e.samples != 0 ? e.samples : a == Algorithm::Ep ? std::max<std::size_t>(100, 2 * (d + 3)) : 1;
  if (a == Algorithm::Ep && c.samples <= d + 2)
    throw FitConfigurationError(
        "ep estimates each site's natural parameters without bias from its draws, which needs "
        "--ep-samples above D + 2 = " +
        std::to_string(d + 2) + " (got " + std::to_string(c.samples) + "); ep-eta and ep-mu work with one draw");
  const double sites = static_cast<double>(std::max<std::size_t>(shape.partitions, 1));
  const double localsFactor = std::sqrt(std::max(1.0, static_cast<double>(shape.maxLocalDim) / kEpManyLocals));
  c.step = e.step != 0.0            ? e.step
           : a == Algorithm::Ep ? kDefaultEpDamping
                                    : std::min(0.02, kEpStepPerSite / sites) / localsFactor;
  if (!(e.startStep >= 0.0 && e.startStep <= 1.0))
    throw FitConfigurationError("--ep-start-step must be in (0, 1], got " + std::to_string(e.startStep));
  c.startStep = e.startStep != 0.0   ? e.startStep
                : a == Algorithm::Ep ? c.step
                                     : std::max(c.step, std::min(0.1, kEpStartStepPerSite / sites) / localsFactor);
  c.rounds = o.rounds != 0 ? o.rounds
             : a == Algorithm::Ep
                 ? kDefaultEpIterations
                 : static_cast<std::size_t>(std::ceil(
                       static_cast<double>(kDefaultEpIterations) *
                       std::max(localsFactor, std::clamp(std::sqrt(kEpAveragingSites / sites), 1.0, 4.0))));
  if (o.roundBudget) c.rounds = std::min(c.rounds, *o.roundBudget);
  c.warmup = c.rounds / 10;
  c.damping = c.step;
  std::ostringstream why;
  if (automatic)
    why << name << ": the model has local latents and " << d << " global dimensions (at most " << kSmallGlobalDim
        << ")";
  else
    why << name << " as requested";
  why << " (full Gaussian over " << d << " dimensions, " << partitionsText(shape)
      << " as sites, one NUTS chain per site over its globals and locals, " << c.samples
      << (c.samples == 1 ? " draw" : " draws") << " per update, " << (a == Algorithm::Ep ? "alpha " : "eps ")
      << (c.startStep != c.step ? std::to_string(c.startStep).substr(0, 6) + " falling to " : std::string()) << c.step
      << (e.power != 1.0 ? ", power " + std::to_string(e.power) : std::string()) << ", " << c.rounds << " iterations)";
  c.reason = why.str();
  return c;
}

}  // namespace

std::optional<std::uint64_t> familyStateNumbers(FamilyKind family, const ModelShape& shape) {
  const std::uint64_t d = shape.globalDim;
  if (d == UINT64_MAX) return std::nullopt;
  const std::optional<std::uint64_t> perFactor =
      family == FamilyKind::Full ? checkedMultiply(d, d + 1) : checkedMultiply(d, 2);
  if (!perFactor) return std::nullopt;
  return checkedMultiply(*perFactor, factorCopies(shape));
}

AlgorithmChoice chooseAlgorithm(const ModelShape& shape, const FitOptions& o) {
  return chooseAlgorithm(shape, o, memoryLimit());
}

AlgorithmChoice chooseAlgorithm(const ModelShape& shape, const FitOptions& o, const MemoryLimit& memory) {
  if (o.skewedGlobals.value_or(false) && o.algorithm != Algorithm::Sfvi && o.algorithm != Algorithm::Auto)
    throw FitConfigurationError("--globals skewed is for sfvi (a skewed q(z) has no natural parameters to pass as " +
                                std::string(algorithmName(o.algorithm)) + " factors); drop it or use --algorithm sfvi");
  if (o.innerDraws > 1 && o.algorithm != Algorithm::Auto && o.algorithm != Algorithm::Sfvi &&
      o.algorithm != Algorithm::SfviAvg)
    throw FitConfigurationError(std::string("--inner-draws is for sfvi and sfvi-avg (") +
                                algorithmName(o.algorithm) +
                                " does not fit q(w | z) to an importance-weighted bound); drop it or use --algorithm sfvi");
  if (o.laplaceLocals.value_or(false) && o.algorithm != Algorithm::Auto && o.algorithm != Algorithm::Sfvi &&
      o.algorithm != Algorithm::SfviAvg)
    throw FitConfigurationError(std::string("--inner-proposal laplace is for sfvi and sfvi-avg (") +
                                algorithmName(o.algorithm) +
                                " does not weigh draws of the locals); drop it or use --algorithm sfvi");
  if (o.algorithm == Algorithm::Nuts) return chooseNuts(shape, o, memory);
  if (isEp(o.algorithm)) return chooseEp(shape, o, memory, false);
  if (o.algorithm != Algorithm::Auto && o.algorithm != Algorithm::Pvi && o.algorithm != Algorithm::Sfvi &&
      o.algorithm != Algorithm::SfviAvg)
    throw FitConfigurationError(notImplemented(o.algorithm));
  if (o.damping != 0.0 && !(o.damping > 0.0 && o.damping <= 1.0))
    throw FitConfigurationError("damping must be in (0, 1], got " + std::to_string(o.damping));
  if (o.localSteps == 0) throw FitConfigurationError("the number of local steps must be positive");
  if (o.iterationsPerRound == 0) throw FitConfigurationError("--iterations-per-round must be positive");
  if (o.samples == 0) throw FitConfigurationError("the number of Monte Carlo samples must be positive");
  if (o.roundBudget && *o.roundBudget == 0) throw FitConfigurationError("the round budget must be positive");
  if (!(o.tolerance >= 0.0)) throw FitConfigurationError("the tolerance must be non-negative");
  if (!(o.learningRate > 0.0)) throw FitConfigurationError("the learning rate must be positive");
  if (!(o.initialSd > 0.0) || !std::isfinite(o.initialSd))
    throw FitConfigurationError("--initial-sd must be a positive number, got " + std::to_string(o.initialSd));

  AlgorithmChoice c;
  // Auto: PVI without local latents; SFVI with them (its silos' q(w_j | z) follow z, its
  // iterates are those of one silo holding all the data), until EP-mu lands.
  // With a cap on the communication rounds (--round-budget), SFVI-Avg: m local steps per round.
  const bool autoSfvi = o.algorithm == Algorithm::Auto && shape.localDim > 0;
  c.algorithm = o.algorithm == Algorithm::SfviAvg || (autoSfvi && o.roundBudget) ? Algorithm::SfviAvg
                : o.algorithm == Algorithm::Sfvi || autoSfvi                     ? Algorithm::Sfvi
                                                                                 : Algorithm::Pvi;
  // Auto picks full only when its D x D matrices fit in memory too.
  const bool fullFits = !memory.exceededBy(familyStateNumbers(FamilyKind::Full, shape));
  c.family = o.family                                               ? *o.family
             : shape.globalDim <= kFullCovarianceMaxDim && fullFits ? FamilyKind::Full
                                                                    : FamilyKind::MeanField;
  checkFamilyFits(c.family, shape, memory);
  // Sequential PVI with rho = 1 needs the fewest rounds (one pass is assumed density filtering);
  // synchronous PVI runs clients in parallel but must be damped by about 1 / M.
  c.schedule = o.schedule ? *o.schedule : shape.localDim == 0 ? ScheduleKind::Synchronous : ScheduleKind::Sequential;
  const std::size_t participants = std::max<std::size_t>(shape.partitions, 1) + 1;  // + the refined prior
  c.damping = o.damping != 0.0                         ? o.damping
              : c.schedule == ScheduleKind::Sequential ? 1.0
                                                       : std::min(1.0, 2.0 / static_cast<double>(participants));
  const std::uint64_t couplingNumbers = static_cast<std::uint64_t>(shape.maxLocalDim) * shape.globalDim;
  c.locals = o.locals                                       ? *o.locals
             : couplingNumbers > kCouplingMaxNumbers        ? LocalsKind::Independent
             : shape.maxLocalDim <= kCorrelatedLocalsMaxDim ? LocalsKind::Structured
                                                            : LocalsKind::Skewed;
  // PVI's clients run their local optimisation to the end every round, and the fit settles in a
  // few rounds, so they take the refined draws from the first round instead (Six Cities: 7 rounds
  // with 128 draws, 27 s; doubling at each plateau would need 5 stages of 6 rounds).
  if (c.algorithm == Algorithm::Sfvi || c.algorithm == Algorithm::Pvi) {
    c.refineSamples = o.refineSamples != 0                          ? o.refineSamples
                      : shape.maxLocalDim > kCorrelatedLocalsMaxDim ? kRefineFactor * o.samples
                                                                    : 0;
    if (c.refineSamples <= o.samples) c.refineSamples = 0;
  }
  c.rounds = o.rounds != 0                                           ? o.rounds
             : c.refineSamples > 0 && c.algorithm == Algorithm::Sfvi ? kSfviRefinedRounds
                                                                     : kDefaultRounds;
  if (o.roundBudget) c.rounds = std::min(c.rounds, *o.roundBudget);
  // Auto picks sfvi (or sfvi-avg) whenever there are locals; without them there is nothing to weigh.
  const bool sfviFamily = c.algorithm == Algorithm::Sfvi || c.algorithm == Algorithm::SfviAvg;
  c.innerDraws = !sfviFamily || shape.localDim == 0                ? 1
                 : o.innerDraws != 0                               ? o.innerDraws
                 : shape.maxLocalDim <= kInnerDrawsMaxLocalDim ? kAutoInnerDraws
                                                               : 1;
  c.laplaceLocals = sfviFamily && shape.localDim > 0 &&
                    o.laplaceLocals.value_or(c.innerDraws > 1 && shape.maxLocalDim <= kInnerDrawsMaxLocalDim);
  // With one draw the weights are all 1: the z-gradient would be the proposal's expectation, not
  // Fisher's identity.
  if (c.laplaceLocals && c.innerDraws < 2)
    throw FitConfigurationError("--inner-proposal laplace weighs several draws of each partition's locals; add "
                                "--inner-draws 8 (auto gives 1 draw where a partition has more than " +
                                std::to_string(kInnerDrawsMaxLocalDim) + " locals)");
  if (o.skewedGlobals.value_or(false) && c.algorithm != Algorithm::Sfvi)
    throw FitConfigurationError(std::string("--globals skewed is for sfvi; auto picked ") +
                                algorithmName(c.algorithm) + " for this model: add --algorithm sfvi");
  c.skewedGlobals = o.skewedGlobals ? *o.skewedGlobals : c.algorithm == Algorithm::Sfvi && c.laplaceLocals;

  std::ostringstream why;
  if (c.algorithm == Algorithm::Sfvi || c.algorithm == Algorithm::SfviAvg) {
    if (autoSfvi)
      why << algorithmName(c.algorithm) << ": the model has local latents"
          << (o.roundBudget ? " and the communication rounds are capped" : "")
          << (shape.globalDim <= kSmallGlobalDim
                  ? " (--algorithm ep-mu is the alternative; docs/fitting.md, \"EP\", compares the two)"
                  : "");
    else
      why << algorithmName(c.algorithm) << " as requested";
    why << " (" << familyName(c.family) << (c.skewedGlobals ? " skewed" : "") << " Gaussian over " << shape.globalDim
        << " dimensions, ";
    if (shape.localDim > 0) {
      why << localsName(c.locals) << " q(w | z)";
      if (!o.locals && c.locals == LocalsKind::Independent)
        why << " (coupling it to z would take " << groupedNumber(shape.maxLocalDim) << " x "
            << groupedNumber(shape.globalDim) << " numbers per partition)";
      if (c.innerDraws > 1) why << " with " << c.innerDraws << " importance-weighted draws per z";
      if (c.laplaceLocals) why << (c.innerDraws > 1 ? " from" : " with draws from") << " each z's Laplace proposal";
      why << ", ";
    }
    why << partitionsText(shape) << " as silos, up to " << c.rounds << " rounds of " << o.iterationsPerRound
        << (c.algorithm == Algorithm::SfviAvg ? " local steps, one message each way per silo per round)"
            : c.refineSamples > 0 ? " iterations, draws doubling from " + std::to_string(o.samples) + " to " +
                                        std::to_string(c.refineSamples) + " at each plateau)"
                                  : " iterations)");
    c.reason = why.str();
    return c;
  }
  // Auto picks pvi only for models without local latents (with them, sfvi above).
  why << (o.algorithm == Algorithm::Pvi ? "pvi as requested" : "pvi: the model has no local latents");
  why << " (" << scheduleName(c.schedule) << " schedule, " << familyName(c.family) << " Gaussian over "
      << shape.globalDim << " dimensions, ";
  if (shape.localDim > 0) why << localsName(c.locals) << " q(w | z), ";
  why << partitionsText(shape) << ", up to " << c.rounds << " rounds, damping " << c.damping;
  if (c.refineSamples > 0) why << ", " << c.refineSamples << " draws per local step";
  why << ")";
  c.reason = why.str();
  return c;
}

}  // namespace pvi
