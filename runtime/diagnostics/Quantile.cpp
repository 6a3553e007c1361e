#include "runtime/diagnostics/Quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace pvi::diagnostics {

double quantile(const IterationsByChains& draws, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("quantile: the probability must be in [0, 1]");
  if (draws.size() == 0 || draws.hasNaN()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values(draws.reshaped().begin(), draws.reshaped().end());
  const double index = 1.0 + static_cast<double>(values.size() - 1) * p;  // 1-based, as in R
  const double lo = std::floor(index);
  // The lo-th smallest value, then the next one: the smallest of those above it.
  const auto low = values.begin() + static_cast<std::ptrdiff_t>(lo) - 1;
  std::nth_element(values.begin(), low, values.end());
  if (!(index > lo)) return *low;
  const double high = *std::min_element(low + 1, values.end());
  if (high == *low) return *low;
  const double h = index - lo;
  return (1.0 - h) * *low + h * high;
}

double median(const IterationsByChains& draws) { return quantile(draws, 0.5); }

}  // namespace pvi::diagnostics
