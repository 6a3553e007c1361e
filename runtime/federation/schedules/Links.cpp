#include "runtime/federation/schedules/Links.hpp"

#include <random>

#include "runtime/support/Seeds.hpp"

namespace pvi::federation {

LinkEvent SimulatedLinks::link(std::size_t factorIndex, std::size_t attempt) const {
  std::mt19937_64 rng(support::deriveSeed(seed, factorIndex, attempt));
  const double mean = factorIndex < meanLatency.size() ? meanLatency[factorIndex] : defaultLatency;
  const double drop = factorIndex < dropProbability.size() ? dropProbability[factorIndex] : defaultDropProbability;
  const double u = support::uniform01(rng);
  LinkEvent e;
  e.latency = mean * (1.0 + jitter * (2.0 * u - 1.0));
  e.dropped = support::uniform01(rng) < drop;
  return e;
}

}  // namespace pvi::federation
