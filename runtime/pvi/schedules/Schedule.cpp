#include "runtime/pvi/schedules/Schedule.hpp"

#include "runtime/pvi/Seeds.hpp"

namespace pvi::detail {

template <class Family>
double endRound(Federation<Family>& federation, std::size_t round, const FreeEnergyTracing& tracing,
                std::chrono::steady_clock::time_point start) {
  Server<Family>& server = federation.server();
  ++server.counters().rounds;
  TraceRecord r;
  r.round = server.counters().rounds;
  r.maxChange = server.takeMaxChange();
  if (tracing.every > 0 && round % tracing.every == 0) {
    const Estimate f = federation.freeEnergy(tracing.samples, deriveSeed(tracing.seed, r.round));
    r.freeEnergy = f.value;
    r.freeEnergyStandardError = f.standardError;
  }
  r.counters = server.counters();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server.trace().record(r);
  return r.maxChange;
}

template double endRound<FullGaussian>(Federation<FullGaussian>&, std::size_t, const FreeEnergyTracing&,
                                       std::chrono::steady_clock::time_point);
template double endRound<MeanFieldGaussian>(Federation<MeanFieldGaussian>&, std::size_t, const FreeEnergyTracing&,
                                            std::chrono::steady_clock::time_point);

}  // namespace pvi::detail
