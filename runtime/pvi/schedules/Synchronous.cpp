#include "runtime/pvi/schedules/Synchronous.hpp"

#include <future>
#include <stdexcept>
#include <vector>

#include "runtime/pvi/Seeds.hpp"
#include "runtime/pvi/ThreadPool.hpp"

namespace pvi {

template <class Family>
RunSummary runSynchronous(Federation<Family>& federation, const SynchronousOptions& options) {
  if (!(options.damping > 0.0 && options.damping <= 1.0))
    throw std::invalid_argument("runSynchronous: damping must be in (0, 1]");
  const auto start = std::chrono::steady_clock::now();
  Server<Family>& server = federation.server();
  const std::vector<Client<Family>*> clients = federation.participants();
  ThreadPool pool(options.threads);
  RunSummary summary;
  // Rounds continue the numbering of earlier runs on the same server, so that two runs of r
  // rounds draw the same numbers as one run of 2 r.
  const std::size_t firstRound = server.counters().rounds;
  for (std::size_t r = 0; r < options.rounds; ++r) {
    const std::size_t round = firstRound + r;
    std::vector<std::future<ClientUpdate<Family>>> pending;
    for (Client<Family>* c : clients) {
      const std::uint64_t seed = options.commonRandomNumbers ? roundSeed(options.seed, round)
                                                             : deriveSeed(options.seed, round, c->factorIndex());
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
    ++summary.rounds;
    const double change = detail::endRound(federation, summary.rounds, options.freeEnergy, start);
    if (options.tolerance > 0.0 && change <= options.tolerance) {
      summary.converged = true;
      break;
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

template RunSummary runSynchronous<FullGaussian>(Federation<FullGaussian>&, const SynchronousOptions&);
template RunSummary runSynchronous<MeanFieldGaussian>(Federation<MeanFieldGaussian>&, const SynchronousOptions&);

}  // namespace pvi
