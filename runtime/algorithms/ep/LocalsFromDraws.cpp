#include "runtime/algorithms/ep/LocalsFromDraws.hpp"

#include <Eigen/Cholesky>
#include <stdexcept>
#include <string>

namespace pvi::algorithms::ep {

ConditionalGaussian conditionalFromDraws(const Eigen::MatrixXd& joint, Eigen::Index d, bool correlated) {
  const Eigen::Index n = joint.cols(), dw = joint.rows() - d;
  if (dw <= 0) return {};
  if (n <= joint.rows())
    throw std::invalid_argument("the locals' moments need more draws (" + std::to_string(n) + ") than dimensions (" +
                                std::to_string(joint.rows()) + ")");
  const Eigen::VectorXd mean = joint.rowwise().mean();
  const Eigen::MatrixXd centred = joint.colwise() - mean;
  const Eigen::MatrixXd cov = centred * centred.transpose() / static_cast<double>(n - 1);
  const Eigen::LLT<Eigen::MatrixXd> zz(cov.topLeftCorner(d, d));
  if (zz.info() != Eigen::Success) throw std::invalid_argument("the draws of the globals have a singular covariance");
  ConditionalGaussian q;
  q.anchor = mean.head(d);
  q.mean = mean.tail(dw);
  // C = Cov(w, z) Cov(z)^-1, from the symmetric solve Cov(z) C^T = Cov(z, w).
  q.coupling = zz.solve(cov.topRightCorner(d, dw)).transpose();
  const Eigen::MatrixXd residual = cov.bottomRightCorner(dw, dw) - q.coupling * cov.topRightCorner(d, dw);
  if (!correlated) {
    q.sd = residual.diagonal().cwiseMax(0.0).cwiseSqrt();
  } else {
    const Eigen::LLT<Eigen::MatrixXd> r(residual);
    if (r.info() != Eigen::Success)
      throw std::invalid_argument("the draws of the locals have a singular conditional covariance");
    const Eigen::MatrixXd lower = r.matrixL();
    q.sd = lower.diagonal();
    q.unitLower = q.sd.cwiseInverse().asDiagonal() * lower;  // diag(s) L = chol(R)
    q.unitLower.diagonal().setOnes();                        // exactly, not l_kk / l_kk
  }
  if ((q.sd.array() <= 0.0).any()) throw std::invalid_argument("a local did not move in its draws");
  return q;
}

}  // namespace pvi::algorithms::ep
