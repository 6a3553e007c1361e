#include "runtime/samplers/nuts/Metric.hpp"

#include <Eigen/Cholesky>
#include <stdexcept>
#include <string>

#include "runtime/families/StandardNormal.hpp"

namespace pvi::samplers {

EuclideanMetric::EuclideanMetric(Eigen::Index dim, MetricKind kind) : kind_(kind) {
  inverseDiagonal_ = Eigen::VectorXd::Ones(dim);
  momentumScale_ = inverseDiagonal_;
  if (kind_ == MetricKind::Dense) {
    inverse_ = Eigen::MatrixXd::Identity(dim, dim);
    lower_ = inverse_;
  }
}

void EuclideanMetric::setInverseDiagonal(const Eigen::VectorXd& d) {
  if (d.size() != dim())
    throw std::invalid_argument("metric: " + std::to_string(d.size()) + " diagonal entries for " +
                                std::to_string(dim()) + " dimensions");
  if (!d.allFinite() || (d.array() <= 0.0).any())
    throw std::invalid_argument("metric: the inverse metric's diagonal must be finite and positive");
  inverseDiagonal_ = d;
  momentumScale_ = d.cwiseSqrt().cwiseInverse();
  if (kind_ == MetricKind::Dense) {
    inverse_ = d.asDiagonal();
    lower_ = d.cwiseSqrt().asDiagonal();
  }
}

void EuclideanMetric::setInverseDense(const Eigen::MatrixXd& m) {
  if (kind_ != MetricKind::Dense) throw std::logic_error("metric: a dense inverse metric for a diagonal metric");
  if (m.rows() != dim() || m.cols() != dim())
    throw std::invalid_argument("metric: the inverse metric must be " + std::to_string(dim()) + " x " +
                                std::to_string(dim()));
  Eigen::LLT<Eigen::MatrixXd> llt(m);
  if (!m.allFinite() || llt.info() != Eigen::Success)
    throw std::invalid_argument("metric: the inverse metric is not finite and positive definite");
  inverse_ = m;
  lower_ = llt.matrixL();
  inverseDiagonal_ = m.diagonal();
}

void EuclideanMetric::velocity(const Eigen::VectorXd& p, Eigen::VectorXd& v) const {
  if (kind_ == MetricKind::Diagonal)
    v.array() = inverseDiagonal_.array() * p.array();
  else
    v.noalias() = inverse_ * p;
}

void EuclideanMetric::sampleMomentum(std::mt19937_64& rng, Eigen::VectorXd& p) const {
  fillStandardNormals(p.data(), p.size(), rng);
  if (kind_ == MetricKind::Diagonal)
    p.array() *= momentumScale_.array();
  else  // p = L^{-T} e has covariance (L L')^{-1} = M
    lower_.transpose().triangularView<Eigen::Upper>().solveInPlace(p);
}

}  // namespace pvi::samplers
