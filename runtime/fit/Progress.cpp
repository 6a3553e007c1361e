#include "runtime/fit/Progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace pvi {

bool stderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

void ProgressDisplay::round(const support::TraceRecord& r, const AlgorithmChoice& c) {
  if (!enabled_) return;
  char line[160];
  if (std::isfinite(r.freeEnergy))
    std::snprintf(line, sizeof line, "\r\033[Kround %zu/%zu  ELBO %.4g +- %.2g  elapsed %.1f s", r.round, c.rounds,
                  r.freeEnergy, r.freeEnergyStandardError, r.seconds);
  else
    std::snprintf(line, sizeof line, "\r\033[Kround %zu/%zu  elapsed %.1f s", r.round, c.rounds, r.seconds);
  os_ << line << std::flush;
  open_ = true;
}

void ProgressDisplay::finish() {
  if (open_) os_ << "\n" << std::flush;
  open_ = false;
}

}  // namespace pvi
