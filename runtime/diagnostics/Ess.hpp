#pragma once
// Effective sample sizes (Vehtari et al. 2021, section 3.2; posterior 1.4's ess_*).
#include "runtime/diagnostics/Draws.hpp"

namespace pvi::diagnostics {

// S / tau_hat over the chains of `draws` (split first when `split`): the multi-chain
// autocorrelations rho_t = 1 - (W - mean_c gamma_{c,t}) / var_plus, summed by Geyer's initial
// positive sequence made monotone, tau_hat at least 1/log10(S), so that the
// ESS is at most S log10(S). NaN when fewer than 3 iterations are left or undiagnosable(draws).
// posterior's ess_basic (split = TRUE by default) and ess_mean.
double essBasic(const IterationsByChains& draws, bool split = true);

// essBasic of the rank-normalised split chains (posterior's ess_bulk).
double essBulk(const IterationsByChains& draws);

// essBasic of the split indicator I(x <= quantile(x, prob)) (section 4.3; posterior's ess_quantile; for prob 1,
// prob = (S - 0.5) / S). NaN when undiagnosable(draws); throws std::invalid_argument unless
// 0 <= prob <= 1.
double essQuantile(const IterationsByChains& draws, double prob);

// min(essQuantile(draws, 0.05), essQuantile(draws, 0.95)) (posterior's ess_tail); NaN if either is.
double essTail(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
