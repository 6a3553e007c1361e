#include "runtime/families/FullGaussianStable.hpp"

#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <stdexcept>

namespace pvi {
namespace {

void requireGradientShapes(const FullStable& at, const Eigen::VectorXd& dFdm, const Eigen::MatrixXd& dFdX,
                           const char* name) {
  const Eigen::Index d = at.dim();
  if (dFdm.size() != d || dFdX.rows() != d || dFdX.cols() != d)
    throw std::invalid_argument(std::string("stable gradient: dF/dm or ") + name + " does not match dimension " +
                                std::to_string(d));
}

}  // namespace

FullStable toStable(const FullStandard& q) {
  Eigen::LLT<Eigen::MatrixXd> covariance;
  if (std::string why = detail::factoriseCovariance(q.m, q.S, "the covariance S", covariance); !why.empty())
    throw std::invalid_argument(why);
  Eigen::MatrixXd packed = covariance.matrixL();  // upper triangle zero
  packed.diagonal() = packed.diagonal().array().log().matrix();
  return {q.m, packed};
}

Eigen::MatrixXd choleskyFactor(const FullStable& q) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  Eigen::MatrixXd L = q.logCholesky.triangularView<Eigen::StrictlyLower>();
  L.diagonal() = q.logCholesky.diagonal().array().exp().matrix();
  return L;
}

FullStandard toStandard(const FullStable& q) {
  const Eigen::MatrixXd L = choleskyFactor(q);
  return {q.m, detail::symmetrised(L * L.transpose())};
}

FullStable stableGradientFromCholesky(const FullStable& at, const Eigen::VectorXd& dFdm,
                                      const Eigen::MatrixXd& dFdL) {
  requireGradientShapes(at, dFdm, dFdL, "dF/dL");
  const Eigen::MatrixXd L = choleskyFactor(at);
  Eigen::MatrixXd packed = dFdL.triangularView<Eigen::StrictlyLower>();
  packed.diagonal() = dFdL.diagonal().cwiseProduct(L.diagonal());
  return {dFdm, packed};
}

FullStable stableGradientFromCovariance(const FullStable& at, const Eigen::VectorXd& dFdm,
                                        const Eigen::MatrixXd& dFdS) {
  requireGradientShapes(at, dFdm, dFdS, "dF/dS");
  const Eigen::MatrixXd L = choleskyFactor(at);
  const Eigen::MatrixXd dFdL = (dFdS + dFdS.transpose()) * L;  // only its lower triangle is used
  return stableGradientFromCholesky(at, dFdm, dFdL);
}

}  // namespace pvi
