#include "runtime/output/FromTrace.hpp"

namespace pvi::output {

CommunicationTotals communicationTotals(const support::CommunicationCounters& c) {
  CommunicationTotals t;
  t.serverUpdates = c.serverUpdates;
  t.messagesUp = c.messagesUp;
  t.messagesDown = c.messagesDown;
  t.bytesUp = c.bytesUp;
  t.bytesDown = c.bytesDown;
  t.dropped = c.dropped;
  t.accepted = c.accepted;
  t.rejected = c.rejected;
  return t;
}

TraceRow traceRow(const support::TraceRecord& r) {
  TraceRow row;
  row.round = r.round;
  row.elbo = r.freeEnergy;
  row.elboStandardError = r.freeEnergyStandardError;
  row.maxChange = r.maxChange;
  row.seconds = r.seconds;
  row.communication = communicationTotals(r.counters);
  row.metrics = r.metrics;
  return row;
}

std::vector<TraceRow> traceRows(std::span<const support::TraceRecord> records) {
  std::vector<TraceRow> rows;
  rows.reserve(records.size());
  for (const support::TraceRecord& r : records) rows.push_back(traceRow(r));
  return rows;
}

}  // namespace pvi::output
