#include "runtime/output/Quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pvi::output {

double quantileType7(std::span<const double> sorted, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("quantile probability must be in [0, 1]");
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double frac = h - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double quantileType7Unsorted(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return quantileType7(values, p);
}

}  // namespace pvi::output
