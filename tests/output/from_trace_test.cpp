// Adapters from runtime/support's Trace and CommunicationCounters.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/output/FromTrace.hpp"

namespace pvi::output {
namespace {
using namespace pvi::support;

TEST(FromTrace, TraceRecordsBecomeTraceRows) {
  Trace trace;
  for (std::size_t k = 1; k <= 2; ++k) {
    TraceRecord r;
    r.round = k;
    r.counters.rounds = k;
    r.counters.serverUpdates = 3 * k;
    r.counters.messagesDown = 4 * k;
    r.counters.messagesUp = 5 * k;
    r.counters.bytesDown = 6 * k;
    r.counters.bytesUp = 7 * k;
    r.counters.dropped = k;
    r.counters.accepted = 2 * k;
    r.counters.rejected = k - 1;
    r.maxChange = 0.5 / static_cast<double>(k);
    if (k == 2) {
      r.freeEnergy = -12.5;
      r.freeEnergyStandardError = 0.1;
    }
    r.seconds = 0.25 * static_cast<double>(k);
    trace.record(r);
  }
  const std::vector<TraceRow> rows = traceRows(trace.records());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].round, 1u);
  EXPECT_TRUE(std::isnan(rows[0].elbo));
  EXPECT_EQ(rows[1].elbo, -12.5);
  EXPECT_EQ(rows[1].elboStandardError, 0.1);
  EXPECT_EQ(rows[1].maxChange, 0.25);
  EXPECT_EQ(rows[1].seconds, 0.5);
  const CommunicationTotals& c = rows[1].communication;
  EXPECT_EQ(c.serverUpdates, 6u);
  EXPECT_EQ(c.messagesDown, 8u);
  EXPECT_EQ(c.messagesUp, 10u);
  EXPECT_EQ(c.bytesDown, 12u);
  EXPECT_EQ(c.bytesUp, 14u);
  EXPECT_EQ(c.dropped, 2u);
  EXPECT_EQ(c.accepted, 4u);
  EXPECT_EQ(c.rejected, 1u);
  EXPECT_TRUE(rows[1].metrics.empty());
}

}  // namespace
}  // namespace pvi::output
