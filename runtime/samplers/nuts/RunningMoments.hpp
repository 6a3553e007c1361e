#pragma once
// Welford's running mean and variance of vectors, per coordinate or with the full covariance:
// Stan's windowed adaptation estimates the metric from the positions, the Fisher adaptation from
// the positions and the gradients.
#include <Eigen/Core>
#include <cstddef>

namespace pvi::samplers {

class RunningMoments {
 public:
  explicit RunningMoments(Eigen::Index dim, bool dense = false) : dense_(dense) {
    mean_.setZero(dim);
    if (dense)
      m2_.setZero(dim, dim);
    else
      m2diag_.setZero(dim);
    delta_.setZero(dim);
  }
  void restart() {
    n_ = 0;
    mean_.setZero();
    m2_.setZero();
    m2diag_.setZero();
  }
  void add(const Eigen::VectorXd& q) {
    ++n_;
    delta_ = q - mean_;
    mean_ += delta_ / static_cast<double>(n_);
    if (dense_)
      m2_.noalias() += (q - mean_) * delta_.transpose();
    else
      m2diag_.array() += (q - mean_).array() * delta_.array();
  }
  std::size_t count() const { return n_; }
  // The sum of squared deviations per coordinate (diagonal only), and the sample (co)variance with
  // n - 1 denominator.
  const Eigen::VectorXd& sumOfSquares() const { return m2diag_; }
  Eigen::VectorXd variance() const { return m2diag_ / (static_cast<double>(n_) - 1.0); }
  Eigen::MatrixXd covariance() const { return m2_ / (static_cast<double>(n_) - 1.0); }

 private:
  bool dense_;
  std::size_t n_ = 0;
  Eigen::VectorXd mean_, m2diag_, delta_;
  Eigen::MatrixXd m2_;
};

}  // namespace pvi::samplers
