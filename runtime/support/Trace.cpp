#include "runtime/support/Trace.hpp"

#include <utility>

namespace pvi::support {

void Trace::log(std::string line) { events_.push_back(std::move(line)); }

void Trace::writeCsv(std::ostream& os) const {
  os << "round,server_updates,messages_down,messages_up,bytes_down,bytes_up,dropped,accepted,rejected,halvings,"
        "max_change,free_energy,free_energy_se,seconds\n";
  for (const TraceRecord& r : records_) {
    const CommunicationCounters& c = r.counters;
    os << r.round << ',' << c.serverUpdates << ',' << c.messagesDown << ',' << c.messagesUp << ',' << c.bytesDown << ','
       << c.bytesUp << ',' << c.dropped << ',' << c.accepted << ',' << c.rejected << ',' << c.halvings << ','
       << r.maxChange << ',' << r.freeEnergy << ',' << r.freeEnergyStandardError << ',' << r.seconds << '\n';
  }
}

}  // namespace pvi::support
