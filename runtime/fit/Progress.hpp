#pragma once
// The progress display of long fits: one line rewritten in place after every round (round,
// ELBO, elapsed time), shown only on a terminal so that logs and pipes stay clean.
#include <cstddef>
#include <ostream>

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
  // Ends the line (idempotent).
  void finish();

 private:
  std::ostream& os_;
  bool enabled_;
  bool open_ = false;
};

}  // namespace pvi
