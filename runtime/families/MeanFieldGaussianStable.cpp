#include "runtime/families/MeanFieldGaussianStable.hpp"

#include "runtime/families/MeanFieldGaussianValidity.hpp"

#include <stdexcept>

namespace pvi {
namespace {

template <class P>
void require(const P& params) {
  if (Validity v = checkDistribution(params); !v) throw std::invalid_argument(v.reason);
}

void requireGradientShapes(const MeanFieldStable& at, const Eigen::VectorXd& dFdm, const Eigen::VectorXd& dFdx) {
  if (dFdm.size() != at.dim() || dFdx.size() != at.dim())
    throw std::invalid_argument("stable gradient: gradient lengths do not match dimension " +
                                std::to_string(at.dim()));
}

}  // namespace

MeanFieldStable toStable(const MeanFieldStandard& q) {
  require(q);
  return {q.m, 0.5 * q.var.array().log().matrix()};
}

Eigen::VectorXd standardDeviations(const MeanFieldStable& q) {
  require(q);
  return q.logSd.array().exp().matrix();
}

MeanFieldStandard toStandard(const MeanFieldStable& q) {
  require(q);
  return {q.m, (2.0 * q.logSd.array()).exp().matrix()};
}

MeanFieldStable stableGradientFromSd(const MeanFieldStable& at, const Eigen::VectorXd& dFdm,
                                     const Eigen::VectorXd& dFdsd) {
  requireGradientShapes(at, dFdm, dFdsd);
  return {dFdm, dFdsd.cwiseProduct(standardDeviations(at))};
}

MeanFieldStable stableGradientFromVariance(const MeanFieldStable& at, const Eigen::VectorXd& dFdm,
                                           const Eigen::VectorXd& dFdv) {
  requireGradientShapes(at, dFdm, dFdv);
  return {dFdm, 2.0 * dFdv.cwiseProduct(toStandard(at).var)};
}

}  // namespace pvi
