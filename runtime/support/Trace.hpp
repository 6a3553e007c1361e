#pragma once
// Per-round traces and the event log of a PVI run, kept by the server.
//
// A TraceRecord is appended by the schedule at the end of each round (see Communication.hpp for
// what a round is). freeEnergy is the global free energy (ELBO) estimate at the end of the round
// when the schedule was asked to evaluate it (NaN otherwise), with its Monte Carlo standard
// error. maxChange is the largest |entry| of the deltas applied in the round, relative to
// max(1, max |eta_q|): a convergence measure.
//
// Events are human-readable lines for things worth knowing but not fatal: rejected or halved
// updates and why, dropped messages, failed local optimisations.
#include <cstddef>
#include <limits>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/support/Communication.hpp"

namespace pvi::support {

struct TraceRecord {
  std::size_t round = 0;
  CommunicationCounters counters;  // cumulative at the end of the round
  double maxChange = 0.0;
  double freeEnergy = std::numeric_limits<double>::quiet_NaN();
  double freeEnergyStandardError = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0.0;  // wall-clock since the schedule started
  // Algorithm-specific per-round numbers, e.g. EP's cumulative "sampler_steps" (leapfrog steps)
  // and "kl_to_reference".
  std::map<std::string, double> metrics;
};

class Trace {
 public:
  void record(TraceRecord r) { records_.push_back(r); }
  void log(std::string line);

  const std::vector<TraceRecord>& records() const { return records_; }
  const std::vector<std::string>& events() const { return events_; }

  // One header line, then one line per record: round, the counters, maxChange, freeEnergy, se, seconds.
  void writeCsv(std::ostream& os) const;

 private:
  std::vector<TraceRecord> records_;
  std::vector<std::string> events_;
};

}  // namespace pvi::support
