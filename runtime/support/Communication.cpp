#include "runtime/support/Communication.hpp"

namespace pvi::support {

std::ostream& operator<<(std::ostream& os, const CommunicationCounters& c) {
  return os << "rounds " << c.rounds << ", server updates " << c.serverUpdates << ", messages " << c.messagesDown
            << " down / " << c.messagesUp << " up, bytes " << c.bytesDown << " down / " << c.bytesUp << " up, dropped "
            << c.dropped << ", accepted " << c.accepted << ", rejected " << c.rejected << ", halvings " << c.halvings;
}

}  // namespace pvi::support
