#include "runtime/algorithms/ep/Ep.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

#include "runtime/support/ThreadPool.hpp"

namespace pvi::algorithms::ep {

template <class Family>
EpResult<Family> runEp(const typename Family::Natural& prior, std::size_t sites, const TiltedMoments<Family>& moments,
                       const EpOptions<Family>& o, std::vector<typename Family::Natural> start) {
  using Natural = typename Family::Natural;
  if (Validity ok = checkFactor(prior); !ok)
    throw std::invalid_argument(std::string("EP: eta_0 is not a valid factor: ") + ok.reason);
  if (!(o.step > 0.0) || !(o.beta > 0.0) || o.inner == 0 || o.startStep < 0.0)
    throw std::invalid_argument("EP: the step and beta must be positive and inner at least 1");
  const auto nameOf = [&](std::size_t i) { return o.siteName ? o.siteName(i) : "site " + std::to_string(i + 1); };
  EpResult<Family> r;
  r.sites = start.empty() ? std::vector<Natural>(sites, Natural::flat(prior.dim())) : std::move(start);
  if (r.sites.size() != sites) throw std::invalid_argument("EP: one starting factor per site is needed");
  auto total = [&] {
    Natural t = prior;
    for (const Natural& s : r.sites) t += s;
    return t;
  };
  r.theta = total();
  if (Validity ok = checkDistribution(r.theta); !ok)
    throw std::invalid_argument(std::string("EP: the starting approximation is not a distribution: ") + ok.reason);
  std::unique_ptr<support::ThreadPool> pool;
  if (o.threads > 1 && sites > 1) pool = std::make_unique<support::ThreadPool>(std::min(o.threads, sites));
  std::size_t lastHalving = 0;
  std::optional<double> movingMargin;  // of the smallest cavity margin, after the warm-up's start
  for (std::size_t it = 1; it <= o.iterations; ++it) {
    const Natural theta = r.theta;  // the tilted distributions' theta for this outer iteration
    const double step = (r.startAbandoned ? o.step : scheduledStep(o, it)) * r.stepScale;
    for (std::size_t k = 0; k < o.inner; ++k) {
      const Natural sum = r.theta;  // every site of the sweep updates from the same sum
      // Each site's moments and proposal, on the pool when there is one (the sites' moment
      // sources are independent); then the proposals are applied in site order.
      std::vector<std::optional<typename Family::Mean>> muHats(sites);
      std::vector<std::string> skipWhy(sites);
      // Which cavities are distributions where this sweep starts (the halving rule keeps them so).
      std::vector<char> properBefore(sites, 0);
      for (std::size_t i = 0; i < sites; ++i)
        properBefore[i] = checkDistribution(tiltedNatural(sum, r.sites[i], o.beta)).ok() ? 1 : 0;
      auto one = [&](std::size_t i) {
        const Natural cavity = tiltedNatural(theta, r.sites[i], o.beta);
        if (Validity ok = checkDistribution(cavity); o.requireProperCavity && !ok) {
          skipWhy[i] = "its cavity theta - lambda / beta is not a distribution (" + ok.reason + ")";
          return;
        }
        muHats[i] = moments(i, cavity, o.beta);
        if (!muHats[i]) skipWhy[i] = "its tilted moments could not be estimated";
      };
      support::forEachIndex(pool.get(), sites, one);
      // The sweep with a given step, applied in site order to a copy of the state; its events.
      struct Sweep {
        Natural theta;
        std::vector<Natural> sites;
        std::size_t updates = 0, rejected = 0, skipped = 0;
        std::vector<std::string> events;
      };
      const auto sweep = [&](double s) {
        Sweep w{r.theta, r.sites, 0, 0, 0, {}};
        for (std::size_t i = 0; i < sites; ++i) {
          const auto event = [&](const std::string& what) {
            w.events.push_back("iteration " + std::to_string(it) + ": " + nameOf(i) + what);
          };
          std::optional<Natural> proposed;
          if (muHats[i]) {
            try {
              proposed = updateSite(o.variant, r.sites[i], sum, *muHats[i], s);
            } catch (const std::invalid_argument& e) {  // estimated moments that are not a distribution's
              skipWhy[i] = std::string("its update could not be formed: ") + e.what();
            }
          }
          if (!proposed) {
            ++w.skipped;
            event(" was skipped: " + skipWhy[i]);
            continue;
          }
          Natural next = w.theta - w.sites[i] + *proposed;
          ++w.updates;
          if (Validity ok = checkDistribution(next); !ok) {
            ++w.rejected;
            event("'s update was not applied: the approximation would not be a distribution (" + ok.reason + ")");
            continue;
          }
          w.sites[i] = *proposed;
          w.theta = std::move(next);
        }
        return w;
      };
      // The first site whose cavity was a distribution before the sweep and is none after it.
      const auto lostCavity = [&](const Sweep& w) -> std::optional<std::size_t> {
        if (!o.requireProperCavity) return std::nullopt;
        for (std::size_t i = 0; i < sites; ++i)
          if (properBefore[i] && !checkDistribution(tiltedNatural(w.theta, w.sites[i], o.beta)).ok()) return i;
        return std::nullopt;
      };
      Sweep done = sweep(step);
      std::size_t halvings = 0;
      const std::optional<std::size_t> lostAtFullStep = lostCavity(done);
      std::optional<std::size_t> lost = lostAtFullStep;
      const std::size_t maxHalvings = it <= o.halvingIterations ? o.maxHalvings : 0;
      while (lost && halvings < maxHalvings) {
        ++halvings;
        Sweep smaller = sweep(step * std::ldexp(1.0, -static_cast<int>(halvings)));
        lost = lostCavity(smaller);
        if (!lost) done = std::move(smaller);
      }
      // When no halving helps, the sweep is applied with its own step, as without damping: the
      // site with the improper cavity is skipped until its cavity is proper again.
      if (halvings > 0)
        r.events.push_back("iteration " + std::to_string(it) + ": " +
                           (lost ? "halving the sweep's step " + std::to_string(halvings) +
                                       " times did not keep " + nameOf(*lostAtFullStep) +
                                       "'s cavity a distribution; the sweep was applied with its own step"
                                 : "the sweep's step was halved " + std::to_string(halvings) +
                                       " time(s) to keep every cavity a distribution"));
      if (halvings > 0 && !lost) ++r.damped;
      r.updates += done.updates;
      r.rejected += done.rejected;
      r.skipped += done.skipped;
      for (std::string& e : done.events) r.events.push_back(std::move(e));
      r.sites = std::move(done.sites);
      r.theta = std::move(done.theta);
    }
    r.theta = total();  // the exact sum, free of the running updates' rounding
    r.iterations = it;
    // The backoffs (EpOptions): while the larger start lasts, against startMargin; after it and
    // within backoffIterations, against a tenth (backoffMargin) of the margin's moving average.
    const bool inStart = !r.startAbandoned && scheduledStep(o, it + 1) > o.step;
    if ((inStart && o.startMargin > 0.0) || (!inStart && o.backoffMargin > 0.0 && it <= o.backoffIterations)) {
      double worst = INFINITY;
      std::size_t where = 0;
      for (std::size_t i = 0; i < sites; ++i) {
        const double m = cavityMargin(r.theta, tiltedNatural(r.theta, r.sites[i], o.beta));
        if (m < worst) worst = m, where = i;
      }
      const auto event = [&](const std::string& what) {
        r.events.push_back("iteration " + std::to_string(it) + ": " + nameOf(where) + "'s cavity keeps " +
                           std::to_string(worst).substr(0, 6) +
                           " of the approximation's precision in some direction; the step is " + what +
                           " from now on (" + std::to_string(o.step * r.stepScale).substr(0, 8) + ")");
      };
      const bool mayHalve = r.backoffs < o.maxBackoffs && (r.backoffs == 0 || it >= lastHalving + o.backoffEvery);
      if (inStart && worst < o.startMargin) {
        r.startAbandoned = true;
        event("the final one");
      } else if (!inStart && std::isfinite(worst)) {
        if (mayHalve && movingMargin && worst < o.backoffMargin * *movingMargin) {
          ++r.backoffs;
          r.stepScale *= 0.5;
          lastHalving = it;
          event("halved");
        }
        movingMargin = movingMargin ? 0.98 * *movingMargin + 0.02 * worst : worst;
      }
    }
    if (o.afterIteration && o.afterIteration(it, r)) break;
  }
  return r;
}

template EpResult<FullGaussian> runEp<FullGaussian>(const FullNatural&, std::size_t, const TiltedMoments<FullGaussian>&,
                                                    const EpOptions<FullGaussian>&, std::vector<FullNatural>);
template EpResult<MeanFieldGaussian> runEp<MeanFieldGaussian>(const MeanFieldNatural&, std::size_t,
                                                              const TiltedMoments<MeanFieldGaussian>&,
                                                              const EpOptions<MeanFieldGaussian>&,
                                                              std::vector<MeanFieldNatural>);

}  // namespace pvi::algorithms::ep
