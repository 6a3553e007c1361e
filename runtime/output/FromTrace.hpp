#pragma once
// Adapters from runtime/support's trace records and counters to the writers' plain inputs
// (library pvi_output_support; pvi_output itself depends on no algorithm).
#include <span>
#include <vector>

#include "runtime/output/Results.hpp"
#include "runtime/support/Communication.hpp"
#include "runtime/support/Trace.hpp"

namespace pvi::output {

CommunicationTotals communicationTotals(const support::CommunicationCounters& counters);

// freeEnergy becomes the ELBO; the record's metrics are copied, and the caller may add more (e.g.
// test accuracy).
TraceRow traceRow(const support::TraceRecord& record);
std::vector<TraceRow> traceRows(std::span<const support::TraceRecord> records);  // e.g. Trace::records()

}  // namespace pvi::output
