#include "runtime/federation/Server.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "runtime/families/Family.hpp"

namespace pvi::federation {

template <class Family>
Server<Family>::Server(Natural priorFactor, std::size_t numClients, ServerOptions options)
    : options_(options), posterior_(priorFactor) {
  if (Validity v = checkDistribution(priorFactor); !v)
    throw std::invalid_argument("Server: the prior factor is not a valid distribution: " + v.reason);
  factors_.reserve(numClients + 1);
  factors_.push_back(std::move(priorFactor));
  for (std::size_t k = 0; k < numClients; ++k) factors_.push_back(Natural::flat(posterior_.dim()));
}

template <class Family>
std::size_t Server<Family>::bytesOf(const Natural& eta) const {
  return 8 * payloadDoubles(eta);
}

template <class Family>
typename Family::Natural Server<Family>::send(std::size_t to) {
  if (to >= factors_.size()) throw std::out_of_range("Server::send: no factor " + std::to_string(to));
  if (to != 0) {
    ++counters_.messagesDown;
    counters_.bytesDown += bytesOf(posterior_);
  }
  return posterior_;
}

template <class Family>
void Server<Family>::recordDropped(const ClientUpdate<Family>& update) {
  if (update.factorIndex == 0) return;  // the prior lives on the server
  ++counters_.messagesUp;
  counters_.bytesUp += update.ok ? bytesOf(update.delta) : 0;
  ++counters_.dropped;
  trace_.log("dropped: the update of " + factorName(update.factorIndex) + " was lost");
}

template <class Family>
std::vector<ApplyOutcome> Server<Family>::apply(const std::vector<const ClientUpdate<Family>*>& updates) {
  std::vector<ApplyOutcome> out(updates.size());
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const ClientUpdate<Family>& u = *updates[i];
    if (u.factorIndex >= factors_.size())
      throw std::out_of_range("Server::apply: no factor " + std::to_string(u.factorIndex));
    const std::string who = factorName(u.factorIndex);
    if (u.factorIndex != 0) {
      ++counters_.messagesUp;
      counters_.bytesUp += u.ok ? bytesOf(u.delta) : 0;
    }
    if (!u.ok) {
      out[i].reason = "local optimisation failed: " + u.reason;
    } else if (Validity v = checkFactor(u.delta); !v) {
      out[i].reason = "malformed delta: " + v.reason;
    } else if (u.delta.dim() != posterior_.dim()) {
      out[i].reason = "delta of the wrong dimension";
    } else {
      candidates.push_back(i);
      continue;
    }
    ++counters_.rejected;
    trace_.log("rejected: " + who + ": " + out[i].reason);
  }
  // With several deltas, one that no permitted halving can make valid on its own is rejected
  // alone, so that it does not block the others.
  if (candidates.size() > 1) {
    const double smallest = std::ldexp(1.0, -static_cast<int>(options_.maxHalvings));
    std::vector<std::size_t> kept;
    for (std::size_t i : candidates) {
      if (Validity v = checkDistribution(posterior_ + smallest * updates[i]->delta); !v) {
        out[i].reason =
            "q would be invalid even after " + std::to_string(options_.maxHalvings) + " halvings: " + v.reason;
        ++counters_.rejected;
        trace_.log("rejected: " + factorName(updates[i]->factorIndex) + ": " + out[i].reason);
      } else {
        kept.push_back(i);
      }
    }
    candidates = std::move(kept);
  }
  if (candidates.empty()) return out;

  double scale = 1.0;
  std::size_t halvings = 0;
  Natural candidate;
  std::string why;
  for (;; ++halvings, scale *= 0.5) {
    candidate = posterior_;
    for (std::size_t i : candidates) candidate += scale * updates[i]->delta;
    Validity v = checkDistribution(candidate);
    if (v) break;
    why = v.reason;
    if (halvings == options_.maxHalvings) {
      for (std::size_t i : candidates) {
        out[i].reason = "q would be invalid even after " + std::to_string(halvings) + " halvings: " + why;
        ++counters_.rejected;
        trace_.log("rejected: " + factorName(updates[i]->factorIndex) + ": " + out[i].reason);
      }
      return out;
    }
  }
  if (halvings > 0) {
    counters_.halvings += halvings;
    trace_.log("halved " + std::to_string(halvings) + " times (scale " + std::to_string(scale) +
               ") to keep q valid: " + why);
  }
  double change = 0.0;
  for (std::size_t i : candidates) {
    const Natural d = scale * updates[i]->delta;
    factors_[updates[i]->factorIndex] += d;
    change = std::max(change, maxAbs(d));
    out[i] = ApplyOutcome{true, scale, halvings, {}};
    ++counters_.accepted;
  }
  posterior_ = std::move(candidate);
  ++counters_.serverUpdates;
  maxChange_ = std::max(maxChange_, change / std::max(1.0, maxAbs(posterior_)));
  if (observer_) observer_(*this);
  return out;
}

template <class Family>
double Server<Family>::invariantError() const {
  Natural sum = factors_.front();
  double scale = std::max(maxAbs(posterior_), maxAbs(sum));
  for (std::size_t k = 1; k < factors_.size(); ++k) {
    sum += factors_[k];
    scale = std::max(scale, maxAbs(factors_[k]));
  }
  const double diff = maxAbsDifference(posterior_, sum);
  return scale > 0.0 ? diff / scale : diff;
}

template <class Family>
double Server<Family>::takeMaxChange() {
  return std::exchange(maxChange_, 0.0);
}

#define PVI_INSTANTIATE(F) template class Server<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
