#include "runtime/algorithms/pvi/WhitenedCoordinates.hpp"

#include "runtime/families/FullGaussianStable.hpp"
#include "runtime/families/MeanFieldGaussianStable.hpp"

namespace pvi::algorithms {

FullOrigin whiteningOrigin(const FullStable& q0) { return {q0.m, choleskyFactor(q0), q0.logCholesky.diagonal()}; }

MeanFieldOrigin whiteningOrigin(const MeanFieldStable& q0) { return {q0.m, standardDeviations(q0), q0.logSd}; }

FullStable whiteOrigin(const FullOrigin& o) {
  const Eigen::Index d = o.m.size();
  return {Eigen::VectorXd::Zero(d), Eigen::MatrixXd::Zero(d, d)};
}

MeanFieldStable whiteOrigin(const MeanFieldOrigin& o) {
  const Eigen::Index d = o.m.size();
  return {Eigen::VectorXd::Zero(d), Eigen::VectorXd::Zero(d)};
}

FullStable fromWhite(const FullOrigin& o, const FullStable& white) {
  const Eigen::MatrixXd B = choleskyFactor(white);
  Eigen::MatrixXd packed = (o.L * B).triangularView<Eigen::StrictlyLower>();
  packed.diagonal() = o.logDiagonal + white.logCholesky.diagonal();
  return {o.m + o.L * white.m, packed};
}

MeanFieldStable fromWhite(const MeanFieldOrigin& o, const MeanFieldStable& white) {
  return {o.m + o.sd.cwiseProduct(white.m), o.logSd + white.logSd};
}

FullStable whiteGradient(const FullOrigin& o, const FullStable& white, const Eigen::VectorXd& dFdm,
                         const Eigen::MatrixXd& dFdL) {
  const Eigen::MatrixXd lowerDFdL = dFdL.triangularView<Eigen::Lower>();
  return stableGradientFromCholesky(white, o.L.transpose() * dFdm, o.L.transpose() * lowerDFdL);
}

MeanFieldStable whiteGradient(const MeanFieldOrigin& o, const MeanFieldStable& white, const Eigen::VectorXd& dFdm,
                              const Eigen::VectorXd& dFdsd) {
  const Eigen::VectorXd sd = o.sd.cwiseProduct(white.logSd.array().exp().matrix());
  return {o.sd.cwiseProduct(dFdm), dFdsd.cwiseProduct(sd)};
}

}  // namespace pvi::algorithms
