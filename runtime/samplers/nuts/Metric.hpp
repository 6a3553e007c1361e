#pragma once
// The Euclidean metric of Hamiltonian Monte Carlo: momentum p ~ N(0, M), kinetic energy
// p' M^{-1} p / 2. It is held, as Stan holds it, through the inverse metric M^{-1} (an estimate of
// the posterior covariance): diagonal (Stan's diag_e) or dense (dense_e).
#include <Eigen/Core>
#include <random>

namespace pvi::samplers {

enum class MetricKind { Diagonal, Dense };

class EuclideanMetric {
 public:
  EuclideanMetric() = default;
  // The unit metric in `dim` dimensions.
  EuclideanMetric(Eigen::Index dim, MetricKind kind);

  MetricKind kind() const { return kind_; }
  Eigen::Index dim() const { return inverseDiagonal_.size(); }
  // Throw std::invalid_argument for a wrong size, or an inverse metric that is not finite and
  // positive (definite).
  void setInverseDiagonal(const Eigen::VectorXd& inverseDiagonal);
  void setInverseDense(const Eigen::MatrixXd& inverse);
  // The diagonal of M^{-1} (either kind), and the whole M^{-1} (dense kind only).
  const Eigen::VectorXd& inverseDiagonal() const { return inverseDiagonal_; }
  const Eigen::MatrixXd& inverseDense() const { return inverse_; }

  // v = M^{-1} p, the velocity dq/dt.
  void velocity(const Eigen::VectorXd& p, Eigen::VectorXd& v) const;
  // p ~ N(0, M).
  void sampleMomentum(std::mt19937_64& rng, Eigen::VectorXd& p) const;

 private:
  MetricKind kind_ = MetricKind::Diagonal;
  Eigen::VectorXd inverseDiagonal_;
  Eigen::VectorXd momentumScale_;  // diagonal only: 1 / sqrt(M^{-1}_ii)
  Eigen::MatrixXd inverse_;        // dense only
  Eigen::MatrixXd lower_;          // dense only: M^{-1} = L L'
};

}  // namespace pvi::samplers
