#pragma once
// Sample quantiles of all draws by R's type 7 rule (R's quantile, posterior's quantile2), and the
// median. Kept here rather than shared with runtime/output so that diagnostics depend on Eigen only.
#include "runtime/diagnostics/Draws.hpp"

namespace pvi::diagnostics {

// With the n draws sorted, x_(1) <= ... <= x_(n), and index = 1 + (n - 1) p, lo = floor(index),
// h = index - lo: Q(p) = (1 - h) x_(lo) + h x_(lo+1), exactly as R evaluates it. NaN when there
// are no draws or a draw is NaN; throws std::invalid_argument unless 0 <= p <= 1.
double quantile(const IterationsByChains& draws, double p);

// quantile(draws, 0.5): the middle draw, or the mean of the two middle draws.
double median(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
