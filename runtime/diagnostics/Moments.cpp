#include "runtime/diagnostics/Moments.hpp"

#include <limits>

namespace pvi::diagnostics {

double mean(const Eigen::Ref<const Eigen::VectorXd>& x) {
  if (x.size() == 0) return std::numeric_limits<double>::quiet_NaN();
  const auto n = static_cast<double>(x.size());
  const double first = x.sum() / n;
  return first + (x.array() - first).sum() / n;
}

double sampleVariance(const Eigen::Ref<const Eigen::VectorXd>& x) {
  if (x.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  return (x.array() - mean(x)).square().sum() / static_cast<double>(x.size() - 1);
}

Eigen::VectorXd columnMeans(const Eigen::Ref<const Eigen::MatrixXd>& x) {
  Eigen::VectorXd out(x.cols());
  for (Eigen::Index c = 0; c < x.cols(); ++c) out[c] = mean(x.col(c));
  return out;
}

Eigen::VectorXd columnVariances(const Eigen::Ref<const Eigen::MatrixXd>& x) {
  Eigen::VectorXd out(x.cols());
  for (Eigen::Index c = 0; c < x.cols(); ++c) out[c] = sampleVariance(x.col(c));
  return out;
}

}  // namespace pvi::diagnostics
