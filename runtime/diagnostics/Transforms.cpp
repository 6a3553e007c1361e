#include "runtime/diagnostics/Transforms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unsupported/Eigen/SpecialFunctions>
#include <utility>
#include <vector>

#include "runtime/diagnostics/Quantile.hpp"

namespace pvi::diagnostics {

Eigen::MatrixXd averageRanks(const IterationsByChains& draws) {
  std::vector<std::pair<double, Eigen::Index>> sorted;
  sorted.reserve(static_cast<std::size_t>(draws.size()));
  Eigen::Index at = 0;
  for (const double x : draws.reshaped()) sorted.emplace_back(x, at++);
  // NaNs last, so that the draws before them are ranked among themselves.
  const auto numbers = std::partition(sorted.begin(), sorted.end(), [](const auto& a) { return !std::isnan(a.first); });
  std::sort(sorted.begin(), numbers, [](const auto& a, const auto& b) { return a.first < b.first; });
  Eigen::MatrixXd ranks(draws.rows(), draws.cols());
  double* r = ranks.data();
  std::size_t first = 0;
  while (first < sorted.size()) {
    if (std::isnan(sorted[first].first)) {
      r[sorted[first++].second] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    std::size_t last = first;  // the tie group is sorted[first..last]
    while (last + 1 < sorted.size() && sorted[last + 1].first == sorted[first].first) ++last;
    const double average = 0.5 * static_cast<double>(first + last) + 1.0;
    for (std::size_t i = first; i <= last; ++i) r[sorted[i].second] = average;
    first = last + 1;
  }
  return ranks;
}

Eigen::MatrixXd rankNormalise(const IterationsByChains& draws) {
  const Eigen::ArrayXXd ranks = averageRanks(draws).array();
  const Eigen::ArrayXXd z = ((ranks - 0.375) / (static_cast<double>(ranks.size()) + 0.25)).ndtri();
  return ranks.isNaN().select(ranks, z).matrix();
}

Eigen::MatrixXd fold(const IterationsByChains& draws) { return (draws.array() - median(draws)).abs().matrix(); }

}  // namespace pvi::diagnostics
