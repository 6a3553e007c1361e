#include "runtime/families/ConditionalGaussian.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "runtime/families/SinhArcsinh.hpp"

namespace pvi {
namespace {

void require(const ConditionalGaussian& q) {
  if (Validity v = check(q); !v) throw std::invalid_argument("q(w | z): " + v.reason);
}

}  // namespace

ConditionalGaussian ConditionalGaussian::independent(Eigen::VectorXd mean, Eigen::VectorXd sd) {
  ConditionalGaussian q;
  q.mean = std::move(mean);
  q.sd = std::move(sd);
  return q;
}

ConditionalGaussian withShape(const ConditionalGaussian& q, ConditionalShape shape, Eigen::Index globalDim) {
  ConditionalGaussian out = q;
  const Eigen::Index dw = q.dim();
  if (shape.coupled && !q.coupled()) {
    out.coupling = Eigen::MatrixXd::Zero(dw, globalDim);
    out.anchor = Eigen::VectorXd::Zero(globalDim);
  } else if (!shape.coupled) {
    out.coupling.resize(0, 0);
    out.anchor.resize(0);
  }
  if (shape.coupled && shape.scaled && !q.scaled())
    out.scaleCoupling = Eigen::MatrixXd::Zero(dw, globalDim);
  else if (!(shape.coupled && shape.scaled))
    out.scaleCoupling.resize(0, 0);
  if (shape.correlated && !q.correlated())
    out.unitLower = Eigen::MatrixXd::Identity(dw, dw);
  else if (!shape.correlated)
    out.unitLower.resize(0, 0);
  if (shape.shaped && !q.shaped()) {
    out.skew = Eigen::VectorXd::Zero(dw);
    out.tail = Eigen::VectorXd::Ones(dw);
  } else if (!shape.shaped) {
    out.skew.resize(0);
    out.tail.resize(0);
  }
  return out;
}

Validity check(const ConditionalGaussian& q) {
  const Eigen::Index dw = q.dim();
  if (q.sd.size() != dw)
    return Validity::invalid("sd has " + std::to_string(q.sd.size()) + " entries, mean " + std::to_string(dw));
  if (!q.mean.allFinite()) return Validity::invalid("the mean is not finite");
  for (Eigen::Index i = 0; i < dw; ++i)
    if (!(q.sd[i] > 0.0) || !std::isfinite(q.sd[i]))
      return Validity::invalid("sd " + std::to_string(i + 1) + " is " + std::to_string(q.sd[i]) + ", not positive");
  if (q.coupled()) {
    if (q.coupling.rows() != dw || q.anchor.size() != q.coupling.cols())
      return Validity::invalid("the coupling is " + std::to_string(q.coupling.rows()) + " x " +
                               std::to_string(q.coupling.cols()) + " with an anchor of " +
                               std::to_string(q.anchor.size()) + " entries");
    if (!q.coupling.allFinite() || !q.anchor.allFinite())
      return Validity::invalid("the coupling or its anchor is not finite");
  } else if (q.anchor.size() != 0) {
    return Validity::invalid("an anchor without a coupling");
  }
  if (q.scaled()) {
    if (!q.coupled()) return Validity::invalid("a scale coupling without a coupling");
    if (q.scaleCoupling.rows() != dw || q.scaleCoupling.cols() != q.coupling.cols())
      return Validity::invalid("the scale coupling is not shaped like the coupling");
    if (!q.scaleCoupling.allFinite()) return Validity::invalid("the scale coupling is not finite");
  }
  if (q.correlated()) {
    if (q.unitLower.rows() != dw || q.unitLower.cols() != dw)
      return Validity::invalid("L is not " + std::to_string(dw) + " x " + std::to_string(dw));
    if (!q.unitLower.allFinite()) return Validity::invalid("L is not finite");
    for (Eigen::Index i = 0; i < dw; ++i)
      if (q.unitLower(i, i) != 1.0) return Validity::invalid("L's diagonal is not 1");
  }
  if (q.shaped() || q.tail.size() > 0) {
    if (q.correlated()) return Validity::invalid("a sinh-arcsinh shape with a correlated L");
    if (q.skew.size() != dw || q.tail.size() != dw)
      return Validity::invalid("the shape has " + std::to_string(q.skew.size()) + " skews and " +
                               std::to_string(q.tail.size()) + " tails for " + std::to_string(dw) + " locals");
    if (!q.skew.allFinite()) return Validity::invalid("a skew is not finite");
    for (Eigen::Index i = 0; i < dw; ++i)
      if (!(q.tail[i] > 0.0) || !std::isfinite(q.tail[i]))
        return Validity::invalid("tail " + std::to_string(i + 1) + " is " + std::to_string(q.tail[i]) +
                                 ", not positive");
  }
  return Validity::valid();
}

MeanFieldStandard independentLocals(const ConditionalGaussian& q, const char* user) {
  if (q.coupled() || q.correlated() || q.shaped())
    throw std::invalid_argument(std::string(user) +
                                " handles only Gaussian local latents independent of z and of each other (a "
                                "structured or skewed q(w | z) needs the Adam optimiser)");
  return {q.mean, q.sd.array().square().matrix()};
}

ConditionalGaussian independentConditional(const MeanFieldStandard& q) {
  return ConditionalGaussian::independent(q.m, q.var.cwiseSqrt());
}

Eigen::VectorXd conditionalMean(const ConditionalGaussian& q, const Eigen::VectorXd& z) {
  if (!q.coupled()) return q.mean;
  return q.mean + q.coupling * (z - q.anchor);
}

Eigen::VectorXd conditionalSd(const ConditionalGaussian& q, const Eigen::VectorXd& z) {
  if (!q.scaled()) return q.sd;
  return q.sd.cwiseProduct((q.scaleCoupling * (z - q.anchor)).array().exp().matrix());
}

ConditionalGaussian reanchored(const ConditionalGaussian& q, const Eigen::VectorXd& z0) {
  if (!q.coupled()) return q;
  ConditionalGaussian out = q;
  out.mean = conditionalMean(q, z0);
  out.sd = conditionalSd(q, z0);
  out.anchor = z0;
  return out;
}

namespace {

// Column i: sd(z_i) .* (L xi_i) (or sd(z_i) .* T(xi_i) with a shape), the draw's offset from the location.
Eigen::MatrixXd conditionalNoise(const ConditionalGaussian& q, const Eigen::MatrixXd& Z, const Eigen::MatrixXd& xi) {
  if (xi.rows() != q.dim()) throw std::invalid_argument("q(w | z): xi has the wrong number of rows");
  Eigen::MatrixXd b = q.correlated() ? Eigen::MatrixXd(q.unitLower.triangularView<Eigen::UnitLower>() * xi)
                      : q.shaped()   ? sinh_arcsinh::transform(xi, q.skew, q.tail)
                                     : xi;
  if (!q.scaled()) return q.sd.asDiagonal() * b;
  Eigen::MatrixXd logScale = q.scaleCoupling * (Z.colwise() - q.anchor);
  return (b.array() * logScale.array().exp()).matrix().array().colwise() * q.sd.array();
}

}  // namespace

Eigen::MatrixXd conditionalDraws(const ConditionalGaussian& q, const Eigen::MatrixXd& Z, const Eigen::MatrixXd& xi) {
  require(q);
  if (Z.cols() != xi.cols()) throw std::invalid_argument("q(w | z): as many z as xi columns are needed");
  Eigen::MatrixXd W = conditionalNoise(q, Z, xi);
  W.colwise() += q.mean;
  if (q.coupled()) {
    if (Z.rows() != q.coupling.cols()) throw std::invalid_argument("q(w | z): z has the wrong dimension");
    Eigen::MatrixXd centred = Z;
    centred.colwise() -= q.anchor;
    W.noalias() += q.coupling * centred;
  }
  return W;
}

Eigen::VectorXd conditionalLogDensity(const ConditionalGaussian& q, const Eigen::MatrixXd& Z,
                                      const Eigen::MatrixXd& W) {
  require(q);
  if (W.rows() != q.dim() || Z.cols() != W.cols())
    throw std::invalid_argument("q(w | z): w has the wrong dimension or count");
  Eigen::MatrixXd r = W;
  r.colwise() -= q.mean;
  if (q.coupled()) {
    Eigen::MatrixXd centred = Z;
    centred.colwise() -= q.anchor;
    r.noalias() -= q.coupling * centred;
  }
  r = q.sd.cwiseInverse().asDiagonal() * r;
  Eigen::RowVectorXd logScaleSum = Eigen::RowVectorXd::Zero(W.cols());
  if (q.scaled()) {  // divide by exp(G (z - anchor)) too, and add its log to the normaliser
    const Eigen::MatrixXd logScale = q.scaleCoupling * (Z.colwise() - q.anchor);
    r = (r.array() * (-logScale.array()).exp()).matrix();
    logScaleSum = logScale.colwise().sum();
  }
  if (q.correlated()) q.unitLower.triangularView<Eigen::UnitLower>().solveInPlace(r);
  if (q.shaped()) {  // r holds u = T(xi): back to xi, less log T'(xi) (the change of variables)
    r = sinh_arcsinh::inverse(r, q.skew, q.tail);
    for (Eigen::Index j = 0; j < r.cols(); ++j)
      for (Eigen::Index i = 0; i < r.rows(); ++i)
        logScaleSum[j] += sinh_arcsinh::logDerivative(r(i, j), q.skew[i], q.tail[i]);
  }
  const double constant =
      -q.sd.array().log().sum() - 0.5 * static_cast<double>(q.dim()) * std::log(2.0 * std::numbers::pi);
  return (-0.5 * r.colwise().squaredNorm().array() - logScaleSum.array() + constant).matrix().transpose();
}

namespace {

// Per coordinate: E[u_i], Var[u_i] and E[log T_i'(xi)] of a shaped q (u = xi without a shape).
struct ShapeMoments {
  Eigen::VectorXd mean, variance, logSlope;
};
ShapeMoments shapeMoments(const ConditionalGaussian& q) {
  const Eigen::Index dw = q.dim();
  ShapeMoments out{Eigen::VectorXd::Zero(dw), Eigen::VectorXd::Ones(dw), Eigen::VectorXd::Zero(dw)};
  if (!q.shaped()) return out;
  for (Eigen::Index i = 0; i < dw; ++i) {
    const sinh_arcsinh::Moments mo = sinh_arcsinh::moments(q.skew[i], q.tail[i]);
    out.mean[i] = mo.mean;
    out.variance[i] = mo.variance;
    out.logSlope[i] = mo.expectedLogSlope;
  }
  return out;
}

}  // namespace

double conditionalEntropy(const ConditionalGaussian& q) {
  require(q);
  const double shape = q.shaped() ? shapeMoments(q).logSlope.sum() : 0.0;
  return q.sd.array().log().sum() + 0.5 * static_cast<double>(q.dim()) * (1.0 + std::log(2.0 * std::numbers::pi)) +
         shape;
}

Eigen::MatrixXd conditionalCovariance(const ConditionalGaussian& q) {
  if (q.shaped()) return (q.sd.array().square() * shapeMoments(q).variance.array()).matrix().asDiagonal();
  Eigen::MatrixXd B = q.correlated() ? Eigen::MatrixXd(q.unitLower.triangularView<Eigen::UnitLower>())
                                     : Eigen::MatrixXd::Identity(q.dim(), q.dim());
  B = q.sd.asDiagonal() * B;
  return B * B.transpose();
}

namespace {

// E[diag(sd(z)) L L^T diag(sd(z))] under z ~ N(m, S): entry (i, j) is (L L^T)_ij sd_i sd_j
// E[exp((g_i + g_j)^T (z - anchor))] = ... exp((g_i + g_j)^T (m - anchor) + (g_i + g_j)^T S (g_i + g_j) / 2),
// with S given as GS = G S (so that a diagonal S costs no D x D matrix).
Eigen::MatrixXd expectedConditionalCovariance(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                              const Eigen::MatrixXd& GS) {
  const ConditionalGaussian at = reanchored(q, m);  // sd(m); then the exponent is quadratic only
  Eigen::MatrixXd cov = conditionalCovariance(at);
  if (!q.scaled()) return cov;
  const Eigen::MatrixXd GSG = GS * q.scaleCoupling.transpose();  // g_i^T S g_j
  for (Eigen::Index j = 0; j < cov.cols(); ++j)
    for (Eigen::Index i = 0; i < cov.rows(); ++i) cov(i, j) *= std::exp(0.5 * (GSG(i, i) + GSG(j, j)) + GSG(i, j));
  return cov;
}

// The diagonal of the above plus C S C^T, from GS = G S and CS = C S (either empty when absent):
// no dw x dw matrix, so it stays cheap for thousands of locals.
Eigen::VectorXd expectedVariances(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& GS,
                                  const Eigen::MatrixXd& CS) {
  Eigen::VectorXd v = conditionalSd(q, m).array().square().matrix();
  if (q.correlated()) {
    const Eigen::MatrixXd L = q.unitLower.triangularView<Eigen::StrictlyLower>();
    v.array() *= 1.0 + L.rowwise().squaredNorm().array();
  }
  if (q.scaled()) v.array() *= (2.0 * GS.cwiseProduct(q.scaleCoupling).rowwise().sum()).array().exp();
  if (q.coupled()) v += CS.cwiseProduct(q.coupling).rowwise().sum();
  return v;
}

}  // namespace

namespace {

// With a shape (and no L), w_i = loc_i(z) + sd_i(z) u_i with u independent of z, sd_i(z) lognormal:
//   E[sd_i] = sd_i(m) exp(g_i^T S g_i / 2),  E[sd_i^2] = sd_i(m)^2 exp(2 g_i^T S g_i),
//   Cov(sd_i, sd_j) = E[sd_i] E[sd_j] (exp(g_i^T S g_j) - 1),  Cov(z, sd_i) = S g_i E[sd_i] (Stein),
// so with a_i = E[u_i] E[sd_i]:
//   E[w_i] = loc_i(m) + a_i,
//   Cov(w_i, w_j) = c_i^T S c_j + [i = j] E[sd_i^2] Var u_i + a_i a_j (exp(g_i^T S g_j) - 1)
//                   + a_j c_i^T S g_j + a_i c_j^T S g_i,
//   Cov(w_i, z) = c_i^T S + a_i g_i^T S.
// Everything from CS = C S and GS = G S (empty when absent), so a diagonal S needs no D x D matrix.
struct ShapedTerms {
  Eigen::VectorXd a, expectedSdSquared;
  ShapeMoments shape;
};
ShapedTerms shapedTerms(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& GS) {
  ShapedTerms t;
  t.shape = shapeMoments(q);
  const Eigen::VectorXd sd0 = conditionalSd(q, m);
  Eigen::VectorXd gsg = Eigen::VectorXd::Zero(q.dim());
  if (q.scaled()) gsg = GS.cwiseProduct(q.scaleCoupling).rowwise().sum();
  t.a = t.shape.mean.cwiseProduct(sd0).cwiseProduct((0.5 * gsg).array().exp().matrix());
  t.expectedSdSquared = sd0.array().square() * (2.0 * gsg).array().exp();
  return t;
}

Eigen::VectorXd meanFrom(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& GS) {
  if (!q.shaped()) return conditionalMean(q, m);
  return conditionalMean(q, m) + shapedTerms(q, m, GS).a;
}

Eigen::VectorXd variancesFrom(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& GS,
                              const Eigen::MatrixXd& CS) {
  if (!q.shaped()) return expectedVariances(q, m, GS, CS);
  const ShapedTerms t = shapedTerms(q, m, GS);
  Eigen::VectorXd v = t.expectedSdSquared.cwiseProduct(t.shape.variance);
  if (q.scaled())
    v.array() += t.a.array().square() * (GS.cwiseProduct(q.scaleCoupling).rowwise().sum().array().exp() - 1.0);
  if (q.coupled()) v += CS.cwiseProduct(q.coupling).rowwise().sum();
  if (q.coupled() && q.scaled())
    v.array() += 2.0 * t.a.array() * CS.cwiseProduct(q.scaleCoupling).rowwise().sum().array();
  return v;
}

LocalMoments momentsFrom(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& GS,
                         const Eigen::MatrixXd& CS) {
  LocalMoments out;
  out.mean = meanFrom(q, m, GS);
  if (!q.shaped()) {
    out.covariance = expectedConditionalCovariance(q, m, GS);
    if (q.coupled()) {
      out.crossGlobal = CS;
      out.covariance.noalias() += CS * q.coupling.transpose();
    }
    return out;
  }
  const ShapedTerms t = shapedTerms(q, m, GS);
  out.covariance = t.expectedSdSquared.cwiseProduct(t.shape.variance).asDiagonal();
  if (q.scaled()) {
    const Eigen::MatrixXd GSG = GS * q.scaleCoupling.transpose();
    out.covariance.array() += (t.a * t.a.transpose()).array() * (GSG.array().exp() - 1.0);
  }
  if (q.coupled()) {
    out.crossGlobal = CS;
    out.covariance.noalias() += CS * q.coupling.transpose();
    if (q.scaled()) {
      const Eigen::MatrixXd A = CS * q.scaleCoupling.transpose() * t.a.asDiagonal();  // a_j c_i^T S g_j
      out.covariance += A + A.transpose();
      out.crossGlobal.noalias() += t.a.asDiagonal() * GS;
    }
  }
  return out;
}

Eigen::MatrixXd scaleTimes(const ConditionalGaussian& q, const Eigen::MatrixXd& S) {
  return q.scaled() ? Eigen::MatrixXd(q.scaleCoupling * S) : Eigen::MatrixXd();
}
Eigen::MatrixXd couplingTimes(const ConditionalGaussian& q, const Eigen::MatrixXd& S) {
  return q.coupled() ? Eigen::MatrixXd(q.coupling * S) : Eigen::MatrixXd();
}
Eigen::MatrixXd scaleTimesDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& variances) {
  return q.scaled() ? Eigen::MatrixXd(q.scaleCoupling * variances.asDiagonal()) : Eigen::MatrixXd();
}
Eigen::MatrixXd couplingTimesDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& variances) {
  return q.coupled() ? Eigen::MatrixXd(q.coupling * variances.asDiagonal()) : Eigen::MatrixXd();
}

}  // namespace

Eigen::VectorXd marginalMean(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& S) {
  require(q);
  return meanFrom(q, m, scaleTimes(q, S));
}
Eigen::VectorXd marginalMeanDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                     const Eigen::VectorXd& variances) {
  require(q);
  return meanFrom(q, m, scaleTimesDiagonal(q, variances));
}

Eigen::VectorXd marginalVariances(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& S) {
  require(q);
  return variancesFrom(q, m, scaleTimes(q, S), couplingTimes(q, S));
}

Eigen::VectorXd marginalVariancesDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                          const Eigen::VectorXd& variances) {
  require(q);
  return variancesFrom(q, m, scaleTimesDiagonal(q, variances), couplingTimesDiagonal(q, variances));
}

LocalMoments marginalMoments(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Eigen::MatrixXd& S) {
  require(q);
  return momentsFrom(q, m, scaleTimes(q, S), couplingTimes(q, S));
}

LocalMoments marginalMomentsDiagonal(const ConditionalGaussian& q, const Eigen::VectorXd& m,
                                     const Eigen::VectorXd& variances) {
  require(q);
  return momentsFrom(q, m, scaleTimesDiagonal(q, variances), couplingTimesDiagonal(q, variances));
}

}  // namespace pvi
