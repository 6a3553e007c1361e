#include "EigenLogisticModel.hpp"

#include <cmath>
#include <numbers>

namespace spam {

EigenLogisticModel::EigenLogisticModel(const SpamData& data, const Split& split) : d_(data.D), priorSd_(data.priorSd) {
  for (const auto& rows : split) {
    Eigen::MatrixXd X(static_cast<Eigen::Index>(rows.size()), d_);
    Eigen::VectorXd y(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      X.row(i) = data.Xtrain.row(static_cast<Eigen::Index>(rows[static_cast<size_t>(i)]));
      y(i) = data.ytrain(static_cast<Eigen::Index>(rows[static_cast<size_t>(i)]));
    }
    X_.push_back(std::move(X));
    y_.push_back(std::move(y));
  }
}

double EigenLogisticModel::priorLogDensity(const double* z, const double*, double* gradZ, double*) const {
  const Eigen::Map<const Eigen::VectorXd> zz(z, d_ + 1);
  const double v = priorSd_ * priorSd_;
  if (gradZ) Eigen::Map<Eigen::VectorXd>(gradZ, d_ + 1) = -zz / v;
  return -0.5 * (d_ + 1) * std::log(2.0 * std::numbers::pi * v) - 0.5 * zz.squaredNorm() / v;
}

double EigenLogisticModel::partitionLogDensity(size_t partition, const double* z, const double*, const double*,
                                               double* gradZ, double*, double*) const {
  const Eigen::MatrixXd& X = X_.at(partition);
  const Eigen::VectorXd& y = y_[partition];
  const Eigen::Map<const Eigen::VectorXd> beta(z + 1, d_);
  // Per-thread scratch, so that evaluation does not allocate after the first call.
  thread_local Eigen::ArrayXd s, e;
  s.resize(X.rows());
  s.matrix().noalias() = X * beta;
  s += z[0];
  e = (-s.abs()).exp();  // exp(-|s|) <= 1: both log(1 + e^s) and sigmoid(s) stay finite
  const double value = (y.array() * s - s.max(0.0) - e.log1p()).sum();
  if (gradZ) {
    // y - sigmoid(s), with sigmoid(s) = 1 / (1 + e) for s >= 0 and e / (1 + e) otherwise.
    e = y.array() - (s >= 0.0).select(1.0, e) / (1.0 + e);
    gradZ[0] = e.sum();
    Eigen::Map<Eigen::VectorXd>(gradZ + 1, d_).noalias() = X.transpose() * e.matrix();
  }
  return value;
}

std::optional<pvi::GaussianPrior> EigenLogisticModel::gaussianPrior() const {
  const auto n = static_cast<size_t>(d_) + 1;
  pvi::GaussianPrior p{std::vector<double>(n, 0.0), std::vector<double>(n * n, 0.0)};
  for (size_t i = 0; i < n; ++i) p.covariance[i * n + i] = priorSd_ * priorSd_;
  return p;
}

}  // namespace spam
