#pragma once
// Adapters from runtime/pvi's records to the writers' plain inputs (library pvi_output_pvi, which
// links pvi_inference; pvi_output itself depends on no algorithm).
#include <span>
#include <vector>

#include "runtime/output/Results.hpp"
#include "runtime/pvi/Communication.hpp"
#include "runtime/pvi/Trace.hpp"

namespace pvi::output {

CommunicationTotals communicationTotals(const CommunicationCounters& counters);

// freeEnergy becomes the ELBO; metrics stay empty for the caller to add (e.g. test accuracy).
TraceRow traceRow(const TraceRecord& record);
std::vector<TraceRow> traceRows(std::span<const TraceRecord> records);  // e.g. Trace::records()

}  // namespace pvi::output
