#include "runtime/federation/schedules/Asynchronous.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::federation {
namespace {

LinkEvent linkOf(const AsynchronousOptions& options, std::size_t factor, std::size_t attempt) {
  return options.links ? options.links->link(factor, attempt) : LinkEvent{};
}

// Applies (or drops) one arrived update and commits it on the client. The caller holds whatever
// lock protects the federation.
template <class Family>
void deliver(Federation<Family>& federation, Participant<Family>& client, const ClientUpdate<Family>& update,
             bool dropped) {
  Server<Family>& server = federation.server();
  if (dropped) {
    server.recordDropped(update);
    return;
  }
  const ApplyOutcome outcome = server.apply(update);
  client.commit(update, outcome.scale);
}

template <class Family>
RunSummary runVirtualTime(Federation<Family>& federation, const AsynchronousOptions& options,
                          std::chrono::steady_clock::time_point start) {
  using Natural = typename Family::Natural;
  struct Pending {
    double time;
    std::size_t order;
    Participant<Family>* client;
    Natural snapshot;
    std::size_t attempt;
    bool dropped;
  };
  struct Later {
    bool operator()(const Pending& a, const Pending& b) const {
      return a.time != b.time ? a.time > b.time : a.order > b.order;
    }
  };
  Server<Family>& server = federation.server();
  const std::vector<Participant<Family>*> clients = federation.participants();
  std::priority_queue<Pending, std::vector<Pending>, Later> queue;
  std::vector<std::size_t> attempts(server.numFactors(), 0);
  std::size_t started = 0, order = 0, processed = 0;
  RunSummary summary;

  auto begin = [&](Participant<Family>* c, double now) {
    if (started >= options.maxUpdates) return;
    const std::size_t f = c->factorIndex();
    const std::size_t attempt = attempts[f]++;
    const LinkEvent link = linkOf(options, f, attempt);
    if (!(link.latency > 0.0)) throw std::invalid_argument("runAsynchronous: latencies must be > 0 in virtual time");
    queue.push(Pending{now + link.latency, order++, c, server.send(f), attempt, link.dropped});
    ++started;
  };
  for (Participant<Family>* c : clients) begin(c, 0.0);
  while (!queue.empty()) {
    Pending p = queue.top();
    queue.pop();
    const ClientUpdate<Family> update = p.client->computeUpdate(
        p.snapshot, options.damping, support::deriveSeed(options.seed, p.client->factorIndex(), p.attempt));
    deliver(federation, *p.client, update, p.dropped);
    if (++processed % clients.size() == 0) {
      const support::TraceRecord record = detail::endRound(federation, options.freeEnergy, start);
      if (detail::finishRound(record, 0.0, options.afterRound, summary)) break;
    }
    begin(p.client, p.time);
  }
  return summary;
}

template <class Family>
RunSummary runThreads(Federation<Family>& federation, const AsynchronousOptions& options,
                      std::chrono::steady_clock::time_point start) {
  Server<Family>& server = federation.server();
  const std::vector<Participant<Family>*> clients = federation.participants();
  std::mutex mutex;
  std::deque<Participant<Family>*> ready(clients.begin(), clients.end());
  std::condition_variable available;
  std::vector<std::size_t> attempts(server.numFactors(), 0);
  std::size_t started = 0, processed = 0;
  bool stopped = false;  // the observer asked to stop
  std::exception_ptr failure;
  RunSummary summary;

  auto work = [&] {
    for (;;) {
      Participant<Family>* c = nullptr;
      typename Family::Natural snapshot;
      std::size_t attempt = 0;
      {
        std::unique_lock lock(mutex);
        available.wait(lock, [&] { return started >= options.maxUpdates || stopped || failure || !ready.empty(); });
        if (started >= options.maxUpdates || stopped || failure) return;
        c = ready.front();
        ready.pop_front();
        attempt = attempts[c->factorIndex()]++;
        ++started;
        snapshot = server.send(c->factorIndex());
      }
      const LinkEvent link = linkOf(options, c->factorIndex(), attempt);
      const ClientUpdate<Family> update =
          c->computeUpdate(snapshot, options.damping, support::deriveSeed(options.seed, c->factorIndex(), attempt));
      if (options.secondsPerLatencyUnit > 0.0 && link.latency > 0.0)
        std::this_thread::sleep_for(std::chrono::duration<double>(link.latency * options.secondsPerLatencyUnit));
      {
        std::lock_guard lock(mutex);
        deliver(federation, *c, update, link.dropped);
        if (++processed % clients.size() == 0) {
          const support::TraceRecord record = detail::endRound(federation, options.freeEnergy, start);
          if (detail::finishRound(record, 0.0, options.afterRound, summary)) stopped = true;
        }
        ready.push_back(c);
      }
      available.notify_all();
    }
  };
  auto worker = [&] {
    try {
      work();
    } catch (...) {
      {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      }
      available.notify_all();
    }
  };
  std::vector<std::thread> threads;
  const std::size_t n = std::max<std::size_t>(1, options.threads);
  for (std::size_t i = 0; i < n; ++i) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return summary;
}

}  // namespace

template <class Family>
RunSummary runAsynchronous(Federation<Family>& federation, const AsynchronousOptions& options) {
  if (!(options.damping > 0.0 && options.damping <= 1.0))
    throw std::invalid_argument("runAsynchronous: damping must be in (0, 1]");
  const auto start = std::chrono::steady_clock::now();
  RunSummary summary = options.executor == AsyncExecutor::VirtualTime ? runVirtualTime(federation, options, start)
                                                                      : runThreads(federation, options, start);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

#define PVI_INSTANTIATE(F) template RunSummary runAsynchronous<F>(Federation<F>&, const AsynchronousOptions&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
