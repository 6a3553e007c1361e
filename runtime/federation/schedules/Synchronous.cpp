#include "runtime/federation/schedules/Synchronous.hpp"

#include <future>
#include <stdexcept>
#include <vector>

#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi::federation {

template <class Family>
RunSummary runSynchronous(Federation<Family>& federation, const SynchronousOptions& options) {
  if (!(options.damping > 0.0 && options.damping <= 1.0))
    throw std::invalid_argument("runSynchronous: damping must be in (0, 1]");
  const auto start = std::chrono::steady_clock::now();
  Server<Family>& server = federation.server();
  const std::vector<Participant<Family>*> clients = federation.participants();
  support::ThreadPool pool(options.threads);
  RunSummary summary;
  // Rounds continue the numbering of earlier runs on the same server, so that two runs of r
  // rounds draw the same numbers as one run of 2 r.
  const std::size_t firstRound = server.counters().rounds;
  for (std::size_t r = 0; r < options.rounds; ++r) {
    const std::size_t round = firstRound + r;
    std::vector<std::future<ClientUpdate<Family>>> pending;
    for (Participant<Family>* c : clients) {
      const std::uint64_t seed = options.commonRandomNumbers
                                     ? support::roundSeed(options.seed, round)
                                     : support::deriveSeed(options.seed, round, c->factorIndex());
      pending.push_back(pool.submit([c, q = server.send(c->factorIndex()), seed, rho = options.damping] {
        return c->computeUpdate(q, rho, seed);
      }));
    }
    std::vector<ClientUpdate<Family>> updates;
    for (auto& f : pending) updates.push_back(f.get());
    std::vector<const ClientUpdate<Family>*> pointers;
    for (const auto& u : updates) pointers.push_back(&u);
    const std::vector<ApplyOutcome> outcomes = server.apply(pointers);
    for (std::size_t i = 0; i < clients.size(); ++i) clients[i]->commit(updates[i], outcomes[i].scale);
    const support::TraceRecord record = detail::endRound(federation, options.freeEnergy, start);
    if (detail::finishRound(record, options.tolerance, options.afterRound, summary)) break;
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

#define PVI_INSTANTIATE(F) template RunSummary runSynchronous<F>(Federation<F>&, const SynchronousOptions&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
