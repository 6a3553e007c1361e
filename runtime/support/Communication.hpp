#pragma once
// Communication bookkeeping of a PVI run, kept by the server.
//
// A message is one natural-parameter set crossing the (simulated) network: the posterior eta_q
// sent down to a client, or a client's Delta_k sent up. Its size is payloadDoubles (the full
// family sends the lower triangle of the symmetric eta2) times 8 bytes; headers are not counted.
// The prior, when refined as factor 0, lives on the server: its updates are not messages.
//
//   rounds            schedule-defined: a pass over all clients (sequential), one broadcast and
//                     gather (synchronous), or every M arrivals (asynchronous)
//   serverUpdates     times the server added something to eta_q (iterations of Algorithm 1 that
//                     changed q)
//   messagesDown/Up, bytesDown/Up   including messages lost on the way (they used bandwidth)
//   dropped           uplink messages lost (simulated dropout)
//   accepted          client deltas applied (possibly after halving)
//   rejected          client deltas not applied: non-finite, or q still invalid after the
//                     permitted halvings, or a failed local optimisation
//   halvings          total halvings of the damping applied by the server's validity guard
//   evaluationMessages  scalar messages for free-energy estimates (not part of the algorithm)
//   startMessages, startBytes  the search for the mode that starts a fit (LaplaceStart.hpp): z
//                     down, f_k and its gradient (and once its Hessian) up
#include <cstddef>
#include <ostream>

namespace pvi::support {

struct CommunicationCounters {
  std::size_t rounds = 0;
  std::size_t serverUpdates = 0;
  std::size_t messagesDown = 0;
  std::size_t messagesUp = 0;
  std::size_t bytesDown = 0;
  std::size_t bytesUp = 0;
  std::size_t dropped = 0;
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  std::size_t halvings = 0;
  std::size_t evaluationMessages = 0;
  std::size_t startMessages = 0;
  std::size_t startBytes = 0;

  std::size_t messages() const { return messagesDown + messagesUp; }
  std::size_t bytes() const { return bytesDown + bytesUp; }
};

std::ostream& operator<<(std::ostream& os, const CommunicationCounters& c);

}  // namespace pvi::support
