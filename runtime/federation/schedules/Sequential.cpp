#include "runtime/federation/schedules/Sequential.hpp"

#include <stdexcept>

#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::federation {

template <class Family>
RunSummary runSequential(Federation<Family>& federation, const SequentialOptions& options) {
  if (!(options.damping > 0.0 && options.damping <= 1.0))
    throw std::invalid_argument("runSequential: damping must be in (0, 1]");
  const auto start = std::chrono::steady_clock::now();
  Server<Family>& server = federation.server();
  std::vector<std::size_t> base;
  if (!options.customOrder.empty()) {
    base = options.customOrder;
  } else {
    for (Participant<Family>* c : federation.participants()) base.push_back(c->factorIndex());
  }
  RunSummary summary;
  // Passes continue the numbering of earlier runs on the same server (fresh random streams).
  const std::size_t firstPass = server.counters().rounds;
  for (std::size_t pass = firstPass; pass < firstPass + options.passes; ++pass) {
    std::vector<std::size_t> order = base;
    if (options.customOrder.empty() && options.order == ClientOrder::Random) {
      std::mt19937_64 rng(support::deriveSeed(options.seed, 0x5EEDull, pass));
      for (std::size_t i = order.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>(support::uniform01(rng) * static_cast<double>(i));
        std::swap(order[i - 1], order[j < i ? j : i - 1]);
      }
    }
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
      Participant<Family>& client = federation.participant(order[pos]);
      const typename Family::Natural q = server.send(client.factorIndex());
      const ClientUpdate<Family> update =
          client.computeUpdate(q, options.damping, support::deriveSeed(options.seed, pass, client.factorIndex(), pos));
      const ApplyOutcome outcome = server.apply(update);
      client.commit(update, outcome.scale);
    }
    const support::TraceRecord record = detail::endRound(federation, options.freeEnergy, start);
    if (detail::finishRound(record, options.tolerance, options.afterRound, summary)) break;
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

#define PVI_INSTANTIATE(F) template RunSummary runSequential<F>(Federation<F>&, const SequentialOptions&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
