#include "runtime/federation/schedules/Schedule.hpp"

#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::federation::detail {

template <class Family>
support::TraceRecord endRound(Federation<Family>& federation, const FreeEnergyTracing& tracing,
                              std::chrono::steady_clock::time_point start) {
  Server<Family>& server = federation.server();
  ++server.counters().rounds;
  support::TraceRecord r;
  r.round = server.counters().rounds;
  r.maxChange = server.takeMaxChange();
  if (tracing.every > 0 && r.round % tracing.every == 0) {
    const estimation::Estimate f = federation.freeEnergy(tracing.samples, support::deriveSeed(tracing.seed, r.round));
    r.freeEnergy = f.value;
    r.freeEnergyStandardError = f.standardError;
  }
  r.counters = server.counters();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server.trace().record(r);
  return r;
}

bool finishRound(const support::TraceRecord& record, double tolerance, const RoundObserver& observer,
                 RunSummary& summary) {
  ++summary.rounds;
  if (tolerance > 0.0 && record.maxChange <= tolerance) summary.converged = true;
  if (observer && observer(record)) summary.stoppedByObserver = true;
  return summary.converged || summary.stoppedByObserver;
}

#define PVI_INSTANTIATE(F)                                                            \
  template support::TraceRecord endRound<F>(Federation<F>&, const FreeEnergyTracing&, \
                                            std::chrono::steady_clock::time_point);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation::detail
