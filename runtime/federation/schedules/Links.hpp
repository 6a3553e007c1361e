#pragma once
// In-process simulation of the network between the server and its clients, for asynchronous
// PVI: how long a client's update takes to reach the server (computation plus transfer, in
// arbitrary time units) and whether it is lost (client dropout: the update never arrives).
//
// A LinkModel is a pure function of (factor index, attempt number), so a simulation is
// reproducible whatever order the questions are asked in.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pvi::federation {

struct LinkEvent {
  double latency = 1.0;  // > 0
  bool dropped = false;
};

class LinkModel {
 public:
  virtual ~LinkModel() = default;
  virtual LinkEvent link(std::size_t factorIndex, std::size_t attempt) const = 0;
};

// Latency uniform in mean * [1 - jitter, 1 + jitter]; dropped with a per-factor probability.
// Factors beyond the vectors' ends use the defaults. Draws from deriveSeed(seed, factor, attempt).
struct SimulatedLinks final : LinkModel {
  std::vector<double> meanLatency;      // by factor index (0 = prior, 1..M clients)
  std::vector<double> dropProbability;  // by factor index
  double defaultLatency = 1.0;
  double defaultDropProbability = 0.0;
  double jitter = 0.5;  // in [0, 1)
  std::uint64_t seed = 7;

  LinkEvent link(std::size_t factorIndex, std::size_t attempt) const override;
};

}  // namespace pvi::federation
