#include "runtime/diagnostics/Rhat.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/diagnostics/Moments.hpp"
#include "runtime/diagnostics/Transforms.hpp"

namespace pvi::diagnostics {

double rhatBasic(const IterationsByChains& draws, bool split) {
  if (split) return rhatBasic(splitChains(draws), false);
  if (undiagnosable(draws)) return std::numeric_limits<double>::quiet_NaN();
  const auto n = static_cast<double>(draws.rows());
  const double between = n * sampleVariance(columnMeans(draws));
  const double within = columnVariances(draws).mean();
  return std::sqrt((between / within + n - 1.0) / n);
}

double rhat(const IterationsByChains& draws) {
  const double bulk = rhatBasic(rankNormalise(splitChains(draws)), false);
  const double tail = rhatBasic(rankNormalise(splitChains(fold(draws))), false);
  return std::isnan(bulk) || std::isnan(tail) ? std::numeric_limits<double>::quiet_NaN() : std::max(bulk, tail);
}

}  // namespace pvi::diagnostics
