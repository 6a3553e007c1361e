#pragma once
// Monte Carlo standard errors of the posterior mean and standard deviation (posterior 1.4's
// mcse_mean and mcse_sd).
#include "runtime/diagnostics/Draws.hpp"

namespace pvi::diagnostics {

// sd(x) / sqrt(essBasic(x)), sd over all draws (denominator S - 1).
double mcseMean(const IterationsByChains& draws);

// With c = x - mean(x): sqrt((mean(c^4) - mean(c^2)^2) / essBasic(c^2) / mean(c^2) / 4), the
// delta method from the variance's standard error to the sd's without assuming normality.
double mcseSd(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
