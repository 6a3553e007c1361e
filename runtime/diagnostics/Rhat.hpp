#pragma once
// Potential scale reduction factors (Vehtari et al. 2021, sections 3.1 and 4; posterior 1.4's rhat*).
#include "runtime/diagnostics/Draws.hpp"

namespace pvi::diagnostics {

// sqrt(((n - 1)/n W + B/n) / W) over the chains of `draws` (split first when `split`), with n
// iterations, W the mean within-chain variance and B/n the variance of the chain means.
// NaN when undiagnosable(draws) or a chain has fewer than two draws. posterior's rhat_basic.
double rhatBasic(const IterationsByChains& draws, bool split = true);

// max(rhat_bulk, rhat_tail) (sections 4.1 and 4.2): rhat_bulk is rhatBasic of the
// rank-normalised split chains, rhat_tail that of the rank-normalised split chains of
// fold(draws). NaN if either is (posterior's rhat).
double rhat(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
