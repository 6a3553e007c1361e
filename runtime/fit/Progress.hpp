#pragma once
// The progress display of long fits: one line rewritten in place after every round (round,
// ELBO, elapsed time), or, for a sampler, after every percent of any chain (each chain's progress
// and phase, and its divergences so far), shown only on a terminal so that logs and pipes stay
// clean.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <vector>

#include "runtime/samplers/nuts/Sampler.hpp"

#include "runtime/fit/AlgorithmChoice.hpp"
#include "runtime/support/Trace.hpp"

namespace pvi {

// True when standard error is a terminal (the default for showing progress).
bool stderrIsTerminal();

class ProgressDisplay {
 public:
  ProgressDisplay(std::ostream& os, bool enabled) : os_(os), enabled_(enabled) {}
  ~ProgressDisplay() { finish(); }

  void round(const support::TraceRecord& r, const AlgorithmChoice& c);
  // Safe to call from the chains' threads.
  void chain(const samplers::ChainProgress& p);
  // Ends the line (idempotent).
  void finish();

 private:
  std::ostream& os_;
  bool enabled_;
  bool open_ = false;
  std::mutex mutex_;
  std::vector<samplers::ChainProgress> chains_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace pvi
