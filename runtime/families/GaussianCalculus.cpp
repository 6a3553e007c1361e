#include "runtime/families/GaussianCalculus.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace pvi {

Eigen::MatrixXd symmetricPart(const Eigen::MatrixXd& a) { return 0.5 * (a + a.transpose()); }

Eigen::MatrixXd reparamRoot(const FullStandard& q) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  Eigen::LLT<Eigen::MatrixXd> llt(q.S);
  if (llt.info() != Eigen::Success) throw std::invalid_argument("covariance is not positive definite");
  return llt.matrixL();
}

Eigen::VectorXd reparamRoot(const MeanFieldStandard& q) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  return q.var.array().sqrt().matrix();
}

Eigen::MatrixXd reparamRoot(const FullStable& q) { return choleskyFactor(q); }
Eigen::VectorXd reparamRoot(const MeanFieldStable& q) { return standardDeviations(q); }

Eigen::VectorXd marginalSds(const FullStandard& q) { return q.S.diagonal().cwiseSqrt(); }
Eigen::VectorXd marginalSds(const MeanFieldStandard& q) { return q.var.cwiseSqrt(); }

Eigen::MatrixXd reparamDraws(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const Eigen::MatrixXd& eps) {
  Eigen::MatrixXd z = L.triangularView<Eigen::Lower>() * eps;
  z.colwise() += m;
  return z;
}

Eigen::MatrixXd reparamDraws(const Eigen::VectorXd& m, const Eigen::VectorXd& sd, const Eigen::MatrixXd& eps) {
  Eigen::MatrixXd z = sd.asDiagonal() * eps;
  z.colwise() += m;
  return z;
}

Eigen::MatrixXd steinHessian(const Eigen::MatrixXd& L, const Eigen::MatrixXd& cross) {
  // E[eps g^T] = cross^T; E[H] = L^{-T} E[eps g^T].
  const Eigen::MatrixXd h = L.triangularView<Eigen::Lower>().transpose().solve(cross.transpose());
  return symmetricPart(h);
}

Eigen::VectorXd steinHessian(const Eigen::VectorXd& sd, const Eigen::VectorXd& crossDiag) {
  return crossDiag.cwiseQuotient(sd);
}

Eigen::MatrixXd crossFromHessian(const Eigen::MatrixXd& L, const Eigen::MatrixXd& hess) {
  return hess * L.triangularView<Eigen::Lower>();
}

Eigen::VectorXd crossFromHessian(const Eigen::VectorXd& sd, const Eigen::MatrixXd& hess) {
  return hess.diagonal().cwiseProduct(sd);
}

FullNatural likelihoodNatural(const FullStandard& q, const Eigen::VectorXd& grad, const Eigen::MatrixXd& hess) {
  const Eigen::MatrixXd h = symmetricPart(hess);
  return {grad - h * q.m, 0.5 * h};
}

MeanFieldNatural likelihoodNatural(const MeanFieldStandard& q, const Eigen::VectorXd& grad,
                                   const Eigen::VectorXd& hessDiag) {
  return {grad - hessDiag.cwiseProduct(q.m), 0.5 * hessDiag};
}

FullNatural fisherProduct(const FullStandard& q, const FullNatural& v) {
  const Eigen::MatrixXd v2 = symmetricPart(v.eta2);
  const Eigen::MatrixXd dS = symmetricPart(2.0 * q.S * v2 * q.S);
  const Eigen::VectorXd dm = q.S * (v.eta1 + 2.0 * v2 * q.m);
  const Eigen::MatrixXd outer = dm * q.m.transpose();
  return {dm, dS + symmetricPart(2.0 * outer)};
}

MeanFieldNatural fisherProduct(const MeanFieldStandard& q, const MeanFieldNatural& v) {
  const Eigen::VectorXd dv = 2.0 * q.var.cwiseProduct(q.var).cwiseProduct(v.eta2);
  const Eigen::VectorXd dm = q.var.cwiseProduct(v.eta1 + 2.0 * v.eta2.cwiseProduct(q.m));
  return {dm, dv + 2.0 * q.m.cwiseProduct(dm)};
}

double maxAbs(const FullNatural& eta) {
  double a = eta.eta1.size() ? eta.eta1.cwiseAbs().maxCoeff() : 0.0;
  if (eta.eta2.size()) a = std::max(a, eta.eta2.cwiseAbs().maxCoeff());
  return a;
}

double maxAbs(const MeanFieldNatural& eta) {
  double a = eta.eta1.size() ? eta.eta1.cwiseAbs().maxCoeff() : 0.0;
  if (eta.eta2.size()) a = std::max(a, eta.eta2.cwiseAbs().maxCoeff());
  return a;
}

bool allFinite(const FullNatural& eta) { return eta.eta1.allFinite() && eta.eta2.allFinite(); }
bool allFinite(const MeanFieldNatural& eta) { return eta.eta1.allFinite() && eta.eta2.allFinite(); }

std::size_t payloadDoubles(const FullNatural& eta) {
  const auto d = static_cast<std::size_t>(eta.dim());
  return d + d * (d + 1) / 2;
}

std::size_t payloadDoubles(const MeanFieldNatural& eta) { return 2 * static_cast<std::size_t>(eta.dim()); }

std::size_t stableSize(const FullStable& s) {
  const auto d = static_cast<std::size_t>(s.dim());
  return d + d * (d + 1) / 2;
}

std::size_t stableSize(const MeanFieldStable& s) { return 2 * static_cast<std::size_t>(s.dim()); }

void flattenStable(const FullStable& s, Eigen::Ref<Eigen::VectorXd> out) {
  const Eigen::Index d = s.dim();
  out.head(d) = s.m;
  Eigen::Index k = d;
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = j; i < d; ++i) out(k++) = s.logCholesky(i, j);
}

void flattenStable(const MeanFieldStable& s, Eigen::Ref<Eigen::VectorXd> out) {
  const Eigen::Index d = s.dim();
  out.head(d) = s.m;
  out.segment(d, d) = s.logSd;
}

void unflattenStable(const Eigen::Ref<const Eigen::VectorXd>& in, FullStable& s) {
  const Eigen::Index d = s.dim();
  s.m = in.head(d);
  s.logCholesky.setZero(d, d);
  Eigen::Index k = d;
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = j; i < d; ++i) s.logCholesky(i, j) = in(k++);
}

void unflattenStable(const Eigen::Ref<const Eigen::VectorXd>& in, MeanFieldStable& s) {
  const Eigen::Index d = s.dim();
  s.m = in.head(d);
  s.logSd = in.segment(d, d);
}

}  // namespace pvi
