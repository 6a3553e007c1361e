#include "runtime/algorithms/pvi/ConditionalCoordinates.hpp"

#include <Eigen/Dense>

namespace pvi::algorithms {
namespace {

ConditionalOrigin originOf(const ConditionalGaussian& q0) {
  ConditionalOrigin o;
  o.q0 = q0;
  o.logSd = q0.sd.array().log().matrix();
  const Eigen::Index dw = q0.dim();
  o.size = 2 * dw + q0.coupling.size() + q0.scaleCoupling.size() + (q0.correlated() ? dw * (dw - 1) / 2 : 0) +
           (q0.shaped() ? 2 * dw : 0);
  return o;
}

}  // namespace

// X Lz0^-1 (or X diag(1 / sd)) in place.
void timesInverseRoot(const ConditionalOrigin& o, Eigen::MatrixXd& X) {
  if (o.zRoot.size() > 0)
    o.zRoot.triangularView<Eigen::Lower>().solveInPlace<Eigen::OnTheRight>(X);  // X Lz0 = given
  else
    X = X * o.zSd.cwiseInverse().asDiagonal();
}
// X Lz0^-T in place.
void timesInverseRootTransposed(const ConditionalOrigin& o, Eigen::MatrixXd& X) {
  if (o.zRoot.size() > 0)
    o.zRoot.transpose().triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(X);
  else
    X = X * o.zSd.cwiseInverse().asDiagonal();
}

ConditionalOrigin conditionalOrigin(const ConditionalGaussian& q0, const Eigen::MatrixXd& zRoot) {
  ConditionalOrigin o = originOf(q0);
  o.zRoot = zRoot;
  return o;
}

ConditionalOrigin conditionalOrigin(const ConditionalGaussian& q0, const Eigen::VectorXd& zSd) {
  ConditionalOrigin o = originOf(q0);
  o.zSd = zSd;
  return o;
}

ConditionalGaussian fromWhite(const ConditionalOrigin& o, const Eigen::Ref<const Eigen::VectorXd>& white,
                              const Eigen::VectorXd& anchor) {
  const ConditionalGaussian& q0 = o.q0;
  const Eigen::Index dw = q0.dim();
  ConditionalGaussian q;
  q.mean = q0.mean + q0.sd.cwiseProduct(white.head(dw));
  q.sd = (o.logSd + white.segment(dw, dw)).array().exp().matrix();
  Eigen::Index at = 2 * dw;
  if (q0.coupled()) {
    const Eigen::Index d = q0.coupling.cols();
    const Eigen::Map<const Eigen::MatrixXd> K(white.data() + at, dw, d);
    at += dw * d;
    Eigen::MatrixXd step = q0.sd.asDiagonal() * K;  // diag(s0) K Lz0^-1
    timesInverseRoot(o, step);
    q.coupling = q0.coupling + step;
    q.anchor = anchor;
  }
  if (q0.scaled()) {
    const Eigen::Index d = q0.scaleCoupling.cols();
    Eigen::MatrixXd step = Eigen::Map<const Eigen::MatrixXd>(white.data() + at, dw, d);  // K_G Lz0^-1
    at += dw * d;
    timesInverseRoot(o, step);
    q.scaleCoupling = q0.scaleCoupling + step;
  }
  if (q0.correlated()) {
    q.unitLower = q0.unitLower;
    for (Eigen::Index j = 0; j < dw; ++j)
      for (Eigen::Index i = j + 1; i < dw; ++i) q.unitLower(i, j) += white[at++];
  }
  if (q0.shaped()) {  // the skews and the log tails move unscaled
    q.skew = q0.skew + white.segment(at, dw);
    q.tail = (q0.tail.array().log() + white.segment(at + dw, dw).array()).exp().matrix();
  }
  return q;
}

void whiteGradient(const ConditionalOrigin& o, const ConditionalGaussian& at, const estimation::LocalGradient& g,
                   Eigen::Ref<Eigen::VectorXd> out) {
  const ConditionalGaussian& q0 = o.q0;
  const Eigen::Index dw = q0.dim();
  out.head(dw) = q0.sd.cwiseProduct(g.mean);
  out.segment(dw, dw) = at.sd.cwiseProduct(g.sd);
  Eigen::Index k = 2 * dw;
  if (q0.coupled()) {
    const Eigen::Index d = q0.coupling.cols();
    Eigen::MatrixXd dK = q0.sd.asDiagonal() * g.coupling;  // diag(s0) dF/dC Lz0^-T
    timesInverseRootTransposed(o, dK);
    out.segment(k, dw * d) = Eigen::Map<const Eigen::VectorXd>(dK.data(), dw * d);
    k += dw * d;
  }
  if (q0.scaled()) {
    const Eigen::Index d = q0.scaleCoupling.cols();
    Eigen::MatrixXd dK = g.scaleCoupling;  // dF/dG Lz0^-T
    timesInverseRootTransposed(o, dK);
    out.segment(k, dw * d) = Eigen::Map<const Eigen::VectorXd>(dK.data(), dw * d);
    k += dw * d;
  }
  if (q0.correlated()) {
    for (Eigen::Index j = 0; j < dw; ++j)
      for (Eigen::Index i = j + 1; i < dw; ++i) out[k++] = g.unitLower(i, j);
  }
  if (q0.shaped()) {
    out.segment(k, dw) = g.skew;
    out.segment(k + dw, dw) = g.logTail;
  }
}

}  // namespace pvi::algorithms
