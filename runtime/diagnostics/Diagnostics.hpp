#pragma once
// MCMC convergence diagnostics of one quantity's draws, as Stan and the R posterior package
// (1.4) compute them (Vehtari, Gelman, Simpson, Carpenter and Buerkner 2021, "Rank-normalization,
// folding, and localization: an improved R-hat for assessing convergence of MCMC"). README here.
#include "runtime/diagnostics/Draws.hpp"
#include "runtime/diagnostics/Ess.hpp"
#include "runtime/diagnostics/Mcse.hpp"
#include "runtime/diagnostics/Rhat.hpp"

namespace pvi::diagnostics {

// NaN where the diagnostic is undefined (constant, NaN or too few draws; see the functions).
struct Diagnostics {
  double rhat;
  double essBulk;
  double essTail;
  double mcseMean;
  double mcseSd;
};

// rhat, essBulk, essTail, mcseMean and mcseSd of iterations x chains draws.
Diagnostics diagnose(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
