#pragma once
// Sample quantiles by R's type 7 rule (the default of R's quantile, NumPy's quantile and the
// posterior package's quantile2): for n sorted values x_0 <= ... <= x_{n-1} and probability p,
// h = (n - 1) p and Q(p) = x_floor(h) + (h - floor(h)) (x_floor(h)+1 - x_floor(h)).
#include <span>
#include <vector>

namespace pvi::output {

// `sorted` must be in ascending order (NaNs excluded); p in [0, 1]. NaN when `sorted` is empty.
double quantileType7(std::span<const double> sorted, double p);

// Sorts a copy of `values` first.
double quantileType7Unsorted(std::vector<double> values, double p);

}  // namespace pvi::output
