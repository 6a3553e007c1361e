#pragma once
// The PVI server (Algorithm 1, steps 1 and 3): it holds the posterior eta_q, the prior factor
// eta_0 (factor 0) and its own record of every client factor eta_k (the sum of the deltas it has
// applied for k), and adds the deltas it receives:
//
//   eta_q += sum of the accepted Delta_k,   eta_k += Delta_k,
//
// so that eta_q == eta_0 + sum_k eta_k after every update (invariantError measures it).
//
// Validity guard. A set of deltas received together (one for sequential and asynchronous PVI,
// a round's for synchronous) is applied atomically with a common scale s:
//   1. a delta from a failed local optimisation, or with a non-finite / malformed entry, is
//      rejected on its own (halving cannot repair it);
//   2. with several deltas, one that is invalid on its own even at the smallest permitted scale
//      (eta_q + 2^-maxHalvings Delta_k) is rejected alone, so it cannot block the others;
//   3. s = 1, 1/2, 1/4, ... (at most maxHalvings halvings) until eta_q + s sum Delta_k -- the very
//      array that would be stored -- is a valid distribution (precision positive definite,
//      everything finite); s halves the damping rho the client used;
//   4. if no such s, the deltas are rejected and q is unchanged.
// An invalid q is therefore never stored. Every rejection and applied halving is counted
// (CommunicationCounters) and logged (Trace::events). The clients must then commit with the
// returned scale (Client::commit) so their eta_k stays equal to the server's record.
//
// Not thread-safe: schedules serialise access.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "runtime/federation/Client.hpp"
#include "runtime/support/Communication.hpp"
#include "runtime/support/Trace.hpp"

namespace pvi::federation {

struct ServerOptions {
  std::size_t maxHalvings = 10;
  // How the event log names factor k ("factor 3" when empty; the fit names partitions by label).
  std::function<std::string(std::size_t)> factorName;
};

struct ApplyOutcome {
  bool applied = false;
  double scale = 0.0;  // the factor by which Delta_k was multiplied when applied (0 if not)
  std::size_t halvings = 0;
  std::string reason;  // why not applied
};

template <class Family>
class Server {
 public:
  using Natural = typename Family::Natural;

  // eta_q = eta_0 = `priorFactor` (must be a valid distribution); factors 1..numClients flat.
  Server(Natural priorFactor, std::size_t numClients, ServerOptions options = {});

  const Natural& posterior() const { return posterior_; }
  const Natural& factor(std::size_t index) const { return factors_.at(index); }
  std::size_t numFactors() const { return factors_.size(); }  // M + 1
  const ServerOptions& options() const { return options_; }
  std::string factorName(std::size_t k) const {
    return options_.factorName ? options_.factorName(k) : "factor " + std::to_string(k);
  }

  // eta_q as sent to factor `to`; counts a downlink message unless `to` is 0 (server-held prior).
  Natural send(std::size_t to);

  // Applies updates received together (see the header comment); one outcome per update, in order.
  std::vector<ApplyOutcome> apply(const std::vector<const ClientUpdate<Family>*>& updates);
  ApplyOutcome apply(const ClientUpdate<Family>& update) { return apply(std::vector{&update}).front(); }

  // An uplink message from `from` lost on the way: counted (messages, bytes, dropped) and logged.
  void recordDropped(const ClientUpdate<Family>& update);

  // max |eta_q - (eta_0 + sum_k eta_k)| relative to the largest |entry| among them.
  double invariantError() const;

  support::CommunicationCounters& counters() { return counters_; }
  const support::CommunicationCounters& counters() const { return counters_; }
  support::Trace& trace() { return trace_; }
  const support::Trace& trace() const { return trace_; }

  // Largest applied change since the last call, relative to max(1, max |eta_q|); resets it.
  double takeMaxChange();

  // Called after every applied update (for tests and progress displays).
  void setObserver(std::function<void(const Server&)> observer) { observer_ = std::move(observer); }

 private:
  std::size_t bytesOf(const Natural& eta) const;

  ServerOptions options_;
  Natural posterior_;
  std::vector<Natural> factors_;
  support::CommunicationCounters counters_;
  support::Trace trace_;
  double maxChange_ = 0.0;
  std::function<void(const Server&)> observer_;
};

}  // namespace pvi::federation
