#include "runtime/algorithms/ep/Ep.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
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
  const auto stepAt = [&](std::size_t it) {
    if (o.startStep <= 0.0 || it > o.decayIterations) return o.step;
    const double f = static_cast<double>(it - 1) / static_cast<double>(o.decayIterations);
    return o.startStep * std::pow(o.step / o.startStep, f);
  };
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
  for (std::size_t it = 1; it <= o.iterations; ++it) {
    const Natural theta = r.theta;  // the tilted distributions' theta for this outer iteration
    const double step = stepAt(it);
    for (std::size_t k = 0; k < o.inner; ++k) {
      const Natural sum = r.theta;  // every site of the sweep updates from the same sum
      // Each site's moments and proposal, on the pool when there is one (the sites' moment
      // sources are independent); then the proposals are applied in site order.
      std::vector<std::optional<Natural>> proposed(sites);
      std::vector<std::string> skipWhy(sites);
      auto one = [&](std::size_t i) {
        const Natural cavity = tiltedNatural(theta, r.sites[i], o.beta);
        if (Validity ok = checkDistribution(cavity); o.requireProperCavity && !ok) {
          skipWhy[i] = "its cavity theta - lambda / beta is not a distribution (" + ok.reason + ")";
          return;
        }
        const auto muHat = moments(i, cavity, o.beta);
        if (!muHat) {
          skipWhy[i] = "its tilted moments could not be estimated";
          return;
        }
        try {
          proposed[i] = updateSite(o.variant, r.sites[i], sum, *muHat, step);
        } catch (const std::invalid_argument& e) {  // estimated moments that are not a distribution's
          skipWhy[i] = std::string("its update could not be formed: ") + e.what();
        }
      };
      support::forEachIndex(pool.get(), sites, one);
      for (std::size_t i = 0; i < sites; ++i) {
        if (!proposed[i]) {
          ++r.skipped;
          r.events.push_back("iteration " + std::to_string(it) + ": " + nameOf(i) + " was skipped: " + skipWhy[i]);
          continue;
        }
        Natural next = r.theta - r.sites[i] + *proposed[i];
        ++r.updates;
        if (Validity ok = checkDistribution(next); !ok) {
          ++r.rejected;
          r.events.push_back("iteration " + std::to_string(it) + ": " + nameOf(i) +
                             "'s update was not applied: the approximation would not be a distribution (" + ok.reason +
                             ")");
          continue;
        }
        r.sites[i] = *proposed[i];
        r.theta = std::move(next);
      }
    }
    r.theta = total();  // the exact sum, free of the running updates' rounding
    r.iterations = it;
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
