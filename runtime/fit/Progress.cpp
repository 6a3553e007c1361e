#include "runtime/fit/Progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

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

void ProgressDisplay::chain(const samplers::ChainProgress& p) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (chains_.size() < p.chain) chains_.resize(p.chain);
  chains_[p.chain - 1] = p;
  std::string line = "\r\033[K";
  for (const samplers::ChainProgress& c : chains_) {
    if (c.chain == 0) continue;
    const std::size_t total = c.warmup + c.samples;
    char part[96];
    std::snprintf(part, sizeof part, "chain %zu %3zu%% %s, %zu div  ", c.chain, total ? 100 * c.iteration / total : 0,
                  c.iteration <= c.warmup ? "warm-up" : "sampling", c.divergences);
    line += part;
  }
  char elapsed[48];
  std::snprintf(elapsed, sizeof elapsed, "elapsed %.1f s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  os_ << line << elapsed << std::flush;
  open_ = true;
}

void ProgressDisplay::finish() {
  if (open_) os_ << "\n" << std::flush;
  open_ = false;
}

}  // namespace pvi
