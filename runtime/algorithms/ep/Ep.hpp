#pragma once
// The EP loop over sites (Algorithms 1 and 2 of "Fearless stochasticity in expectation
// propagation"), generic over how the tilted moments are obtained: exactly (Gaussian sites,
// quadrature) or from samples (NUTS on the tilted distribution, in the sites' own processes).
//
//   repeat `iterations` times:
//     theta <- eta_0 + sum_j lambda_j                       (the tilted distributions use it)
//     repeat `inner` times, every site from the same sum:
//       mu_hat_i <- moments(i, theta - lambda_i / beta)
//       lambda_i <- updateSite(variant, lambda_i, eta_0 + sum_j lambda_j, mu_hat_i, step)
//
// A site whose cavity theta - lambda_i / beta is not a distribution is skipped for that sweep
// (unless `requireProperCavity` is off: with exact moments, or a likelihood known to make the
// tilted distribution proper), as is one whose moments cannot be had (the callback returns
// nothing: an improper tilted distribution, a failed sampler); an update after which
// eta_0 + sum_j lambda_j is not a distribution is not applied; both are counted and logged, and
// the site keeps its factor. A sweep after which a cavity that was a distribution is one no more
// (a site claiming more precision than the rest of the approximation holds: with few sites, one
// noisy update can do it) is redone from the same moments with half the step, up to
// `maxHalvings` times (in the first `halvingIterations`); if none helps, it is applied with its
// own step (and that site is skipped while its cavity is improper). Either way one event is
// logged, and the damped sweeps are counted. Without it, the next sweep would skip that site, and
// EP with few sites swings from one improper cavity to the next instead of settling.
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/algorithms/ep/EpUpdates.hpp"

namespace pvi::algorithms::ep {

template <class Family>
struct EpResult {
  typename Family::Natural theta;
  std::vector<typename Family::Natural> sites;
  std::size_t iterations = 0;
  std::size_t updates = 0;
  std::size_t rejected = 0;  // updates not applied: theta would not have been a distribution
  std::size_t skipped = 0;   // site updates skipped: improper cavity, or no moments
  std::size_t damped = 0;    // sweeps whose step was halved to keep the cavities proper
  bool startAbandoned = false;  // the warm-up's larger start ended early (EpOptions::startMargin)
  std::size_t backoffs = 0;     // times the step was halved for the rest of the run (backoffMargin)
  double stepScale = 1.0;       // 2^-backoffs: the factor on every later step
  std::vector<std::string> events;
};

template <class Family>
struct EpOptions {
  Variant variant = Variant::EpMu;
  double step = 0.5;  // alpha for EP (1: undamped), eps for EP-eta and EP-mu
  // A step that starts larger: over the first `decayIterations` iterations the step falls
  // geometrically from `startStep` to `step` (0: constant `step`). Far from the fixed point a
  // large step gets there sooner; near it the noise of one-draw updates, summed over the sites,
  // needs a small one.
  double startStep = 0.0;
  std::size_t decayIterations = 0;
  double beta = 1.0;  // power of every site (1: EP)
  std::size_t iterations = 50;
  std::size_t inner = 1;  // n_inner: site sweeps per refresh of theta
  // Skip a site whose cavity is not a distribution: a sampler of the tilted distribution needs a
  // proper one unless the likelihood alone makes it proper.
  bool requireProperCavity = true;
  // Halvings of a sweep's step to keep proper cavities proper (0: apply the sweep as it is), in
  // the first `halvingIterations` iterations. Whether a sweep is halved depends on its draws (an
  // update that takes precision away is shortened, one that adds it is not), which biases the
  // fixed point towards too narrow an approximation: a fit allows it only while it warms up.
  std::size_t maxHalvings = 4;
  std::size_t halvingIterations = static_cast<std::size_t>(-1);
  // Backing off from noise. After every iteration the fit finds the cavity that keeps least of
  // the approximation's precision in any direction (cavityMargin). At EP's fixed point each
  // cavity keeps a fixed share; the noise of sampled updates makes the sites wander about it, in
  // steps proportional to the step, and a site that wanders past the edge is skipped and frozen
  // while the others pull against it.
  //   While the warm-up's larger start is above `step`: below `startMargin` the step falls to
  //   `step` for good (one event). A large step is safe while every site is a small part of the
  //   approximation (contraception: 60 sites, each cavity keeping over 0.9 of theta), not once
  //   one holds much of it.
  //   After that, within the first `backoffIterations`: when the margin falls below
  //   `backoffMargin` times its own moving average (rate 0.02 per iteration), the step halves
  //   for the rest of the run, at most once every `backoffEvery` iterations and `maxBackoffs`
  //   times (one event each). Relative, so that a site that holds nearly all of some direction
  //   at the fixed point (one partition and a weak prior) does not shrink the step; limited to
  //   the iterations before the average, whose weights a halving would shift towards the state
  //   that caused it.
  // 0 turns each off. The fixed point does not depend on the step.
  double startMargin = 0.0;
  double backoffMargin = 0.0;
  std::size_t backoffIterations = static_cast<std::size_t>(-1);
  std::size_t backoffEvery = 100;
  std::size_t maxBackoffs = 5;
  // Sites whose moments are computed at once, each on its own thread (the moments source must
  // allow calls for different sites at the same time; SampledSites does). The result does not
  // depend on it.
  std::size_t threads = 1;
  // How events name site i (0-based); empty: "site i + 1".
  std::function<std::string(std::size_t)> siteName;
  // After every outer iteration: its index (1-based) and the run so far (theta, the sites, the
  // counts). Return true to stop.
  std::function<bool(std::size_t, const EpResult<Family>&)> afterIteration;
};

// The scheduled step of iteration `it` (1-based): startStep falling geometrically to step over
// the first decayIterations, then step (before any backoff).
template <class Family>
double scheduledStep(const EpOptions<Family>& o, std::size_t it) {
  if (o.startStep <= 0.0 || it > o.decayIterations) return o.step;
  const double f = static_cast<double>(it - 1) / static_cast<double>(o.decayIterations);
  return o.startStep * std::pow(o.step / o.startStep, f);
}

// mu_hat_i: the moments E[s(z)] of site i's tilted distribution, whose Gaussian part has natural
// parameters `tilted` (theta - lambda_i / beta) and whose likelihood part is l_i / beta.
// Nothing when they cannot be had (the tilted distribution is improper, the sampler failed).
template <class Family>
using TiltedMoments = std::function<std::optional<typename Family::Mean>(
    std::size_t site, const typename Family::Natural& tilted, double beta)>;

// `prior` is eta_0: the prior when it is Gaussian, or flat (zero) when the prior is a site of its
// own. The sites start flat unless `start` gives them; eta_0 + sum of the starting sites must be
// a distribution (std::invalid_argument otherwise).
template <class Family>
EpResult<Family> runEp(const typename Family::Natural& prior, std::size_t sites, const TiltedMoments<Family>& moments,
                       const EpOptions<Family>& options, std::vector<typename Family::Natural> start = {});

}  // namespace pvi::algorithms::ep
