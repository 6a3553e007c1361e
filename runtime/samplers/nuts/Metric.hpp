#pragma once
// The Euclidean metric of Hamiltonian Monte Carlo: momentum p ~ N(0, M), kinetic energy
// p' M^{-1} p / 2. It is held, as Stan holds it, through the inverse metric M^{-1} (an estimate of
// the posterior covariance): diagonal (Stan's diag_e), dense (dense_e), or conditional: a dense
// block over the first d coordinates (z) and the rest (w) given z by a linear regression with
// independent residuals,
//
//   M^{-1} = L L',  L = [[Lz, 0], [B Lz, diag(s)]],  i.e. Cov(z) = Lz Lz', w = B z + s * noise,
//
// which captures a hierarchical model's locals moving with its globals at O(d dim) per leapfrog
// where a dense metric costs O(dim^2).
#include <Eigen/Core>
#include <random>

namespace pvi::samplers {

enum class MetricKind { Diagonal, Dense, Conditional };

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
  // Conditional kind only: z's covariance (d x d), the regression B of w on z ((dim - d) x d) and
  // w's residual variances s^2 (dim - d).
  void setInverseConditional(const Eigen::MatrixXd& zCovariance, const Eigen::MatrixXd& regression,
                             const Eigen::VectorXd& residualVariances);
  // The diagonal of M^{-1} (every kind), and the whole M^{-1} (dense kind only).
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
  Eigen::MatrixXd lower_;          // dense only: M^{-1} = L L'; conditional: Lz
  Eigen::MatrixXd regression_;     // conditional only: B
  Eigen::VectorXd residualSd_;     // conditional only: s
};

}  // namespace pvi::samplers
