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
  if (kind_ == MetricKind::Conditional) {  // the unit metric: no z block, every w independent
    lower_.resize(0, 0);
    regression_.resize(dim, 0);
    residualSd_ = Eigen::VectorXd::Ones(dim);
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
  if (kind_ == MetricKind::Conditional) {
    lower_.resize(0, 0);
    regression_.resize(dim(), 0);
    residualSd_ = d.cwiseSqrt();
  }
}

void EuclideanMetric::setInverseConditional(const Eigen::MatrixXd& zCovariance, const Eigen::MatrixXd& regression,
                                            const Eigen::VectorXd& residualVariances) {
  if (kind_ != MetricKind::Conditional)
    throw std::logic_error("metric: a conditional inverse metric for a metric of another kind");
  const Eigen::Index d = zCovariance.rows(), dw = dim() - d;
  if (zCovariance.cols() != d || d > dim() || regression.rows() != dw || regression.cols() != d ||
      residualVariances.size() != dw)
    throw std::invalid_argument("metric: the conditional inverse metric's blocks do not fit " + std::to_string(dim()) +
                                " dimensions");
  Eigen::LLT<Eigen::MatrixXd> llt(zCovariance);
  if (!zCovariance.allFinite() || llt.info() != Eigen::Success || !regression.allFinite() ||
      !residualVariances.allFinite() || (residualVariances.array() <= 0.0).any())
    throw std::invalid_argument("metric: the conditional inverse metric is not finite and positive definite");
  lower_ = llt.matrixL();
  regression_ = regression;
  residualSd_ = residualVariances.cwiseSqrt();
  inverseDiagonal_.head(d) = zCovariance.diagonal();
  inverseDiagonal_.tail(dw) = ((regression * zCovariance).cwiseProduct(regression)).rowwise().sum() + residualVariances;
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
  if (kind_ == MetricKind::Diagonal) {
    v.array() = inverseDiagonal_.array() * p.array();
  } else if (kind_ == MetricKind::Dense) {
    v.noalias() = inverse_ * p;
  } else {  // v = L (L' p), L' = [[Lz', Lz' B'], [0, diag(s)]]
    const Eigen::Index d = lower_.rows(), dw = dim() - d;
    thread_local Eigen::VectorXd u, lu;
    u.noalias() = p.head(d) + regression_.transpose() * p.tail(dw);
    lu.noalias() = lower_.transpose().triangularView<Eigen::Upper>() * u;
    v.head(d).noalias() = lower_.triangularView<Eigen::Lower>() * lu;
    v.tail(dw).noalias() = regression_ * v.head(d);
    v.tail(dw).array() += residualSd_.array().square() * p.tail(dw).array();
  }
}

void EuclideanMetric::sampleMomentum(std::mt19937_64& rng, Eigen::VectorXd& p) const {
  fillStandardNormals(p.data(), p.size(), rng);
  if (kind_ == MetricKind::Diagonal) {
    p.array() *= momentumScale_.array();
  } else if (kind_ == MetricKind::Dense) {  // p = L^{-T} e has covariance (L L')^{-1} = M
    lower_.transpose().triangularView<Eigen::Upper>().solveInPlace(p);
  } else {  // L' p = e: p_w = e_w / s, Lz' (p_z + B' p_w) = e_z
    const Eigen::Index d = lower_.rows(), dw = dim() - d;
    p.tail(dw).array() /= residualSd_.array();
    lower_.transpose().triangularView<Eigen::Upper>().solveInPlace(p.head(d));
    p.head(d).noalias() -= regression_.transpose() * p.tail(dw);
  }
}

}  // namespace pvi::samplers
