#include "runtime/algorithms/ep/TiltedSampler.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "runtime/algorithms/ep/EpUpdates.hpp"
#include "runtime/samplers/nuts/InitialStepSize.hpp"
#include "runtime/samplers/nuts/Metric.hpp"
#include "runtime/samplers/nuts/StepSizeAdaptation.hpp"

namespace pvi::algorithms::ep {

TiltedSampler::TiltedSampler(std::shared_ptr<const estimation::LocalLikelihood> site, TiltedSamplerOptions options)
    : site_(std::move(site)), options_(options), rng_(options.seed) {
  if (!site_) throw std::invalid_argument("TiltedSampler: no site term");
  d_ = site_->globalDim();
  dw_ = site_->localDim();
  position_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(d_ + dw_));
  window_.reset(static_cast<Eigen::Index>(d_), static_cast<Eigen::Index>(dw_));
  metricMoments_ = window_;
}

void TiltedSampler::JointMoments::reset(Eigen::Index d, Eigen::Index dw) {
  n = 0;
  z.setZero(d);
  w.setZero(dw);
  ww.setZero(dw);
  zz.setZero(d, d);
  wz.setZero(dw, d);
}

void TiltedSampler::JointMoments::add(const Eigen::VectorXd& q, Eigen::Index d) {
  const Eigen::Index dw = q.size() - d;
  ++n;
  z += q.head(d);
  w += q.tail(dw);
  ww += q.tail(dw).cwiseAbs2();
  zz.noalias() += q.head(d) * q.head(d).transpose();
  wz.noalias() += q.tail(dw) * q.head(d).transpose();
}

namespace {

// The metric's w block from the chain's moments: the regression B of w on z and the residual
// variances (at least a hundredth of w's variance, so that a regression fitted to few draws
// cannot pin a local); without enough draws for a regression, w's variances alone (B = 0); without
// two draws, unit variances.
struct WGivenZ {
  Eigen::MatrixXd regression;
  Eigen::VectorXd residual;
  Eigen::MatrixXd zCovariance;  // the draws' z covariance; empty without enough draws
};

WGivenZ wGivenZ(std::size_t n, const Eigen::VectorXd& zs, const Eigen::VectorXd& ws, const Eigen::VectorXd& wws,
                const Eigen::MatrixXd& zzs, const Eigen::MatrixXd& wzs) {
  const Eigen::Index d = zs.size(), dw = ws.size();
  WGivenZ r{Eigen::MatrixXd::Zero(dw, d), Eigen::VectorXd::Ones(dw), Eigen::MatrixXd()};
  if (n < 2) return r;
  const double c = static_cast<double>(n);
  const Eigen::VectorXd mz = zs / c, mw = ws / c;
  const Eigen::VectorXd wVar = ((wws / c - mw.cwiseAbs2()) * c / (c - 1.0)).cwiseMax(1e-8);
  r.residual = wVar;
  if (n <= static_cast<std::size_t>(2 * (d + 2))) return r;
  const Eigen::MatrixXd czz = (zzs / c - mz * mz.transpose()) * c / (c - 1.0);
  const Eigen::MatrixXd cwz = (wzs / c - mw * mz.transpose()) * c / (c - 1.0);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(czz);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || (ldlt.vectorD().array() <= 0.0).any()) return r;
  const Eigen::MatrixXd b = ldlt.solve(cwz.transpose()).transpose();
  if (!b.allFinite()) return r;
  r.regression = b;
  r.zCovariance = czz;
  r.residual = (wVar - b.cwiseProduct(cwz).rowwise().sum()).cwiseMax(0.01 * wVar);
  return r;
}

// Whether a has a variance more than `ratio` times b's along some direction.
bool widerThan(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double ratio) {
  const std::optional<Eigen::VectorXd> e = relativeEigenvalues(a, b);
  return e && e->maxCoeff() > ratio;
}

}  // namespace

Eigen::MatrixXd TiltedSampler::draw(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances,
                                    std::size_t n, const FullStandard* restartFrom, Eigen::MatrixXd* siteGradients,
                                    Eigen::MatrixXd* projectedGradients) {
  return drawJoint(cavity, beta, zVariances, n, restartFrom, siteGradients, projectedGradients)
      .topRows(static_cast<Eigen::Index>(d_));
}

Eigen::MatrixXd TiltedSampler::drawJoint(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances,
                                         std::size_t n, const FullStandard* restartFrom,
                                         Eigen::MatrixXd* siteGradients, Eigen::MatrixXd* projectedGradients) {
  const auto d = static_cast<Eigen::Index>(d_), dw = static_cast<Eigen::Index>(dw_);
  if (cavity.dim() != d || zVariances.size() != d)
    throw std::invalid_argument("TiltedSampler: the cavity or the variances have the wrong dimension");
  if (!(beta > 0.0)) throw std::invalid_argument("TiltedSampler: beta must be positive");
  samplers::Target target;
  target.dim = d_ + dw_;
  target.logDensity = [&](const double* x, double* grad) {
    const Eigen::Map<const Eigen::VectorXd> z(x, d);
    Eigen::Map<Eigen::VectorXd> gz(grad, d), gw(grad + d, dw);
    const double f = site_->evaluate(x, dw > 0 ? x + d : nullptr, grad, dw > 0 ? grad + d : nullptr);
    gz /= beta;
    gw /= beta;
    const Eigen::VectorXd eta2z = cavity.eta2 * z;
    gz += cavity.eta1 + 2.0 * eta2z;
    return cavity.eta1.dot(z) + z.dot(eta2z) + f / beta;
  };
  samplers::NutsOptions nutsOptions;
  nutsOptions.maxDepth = options_.maxDepth;
  samplers::Nuts nuts(target, nutsOptions);

  const bool dense = zCovariance_.rows() == d && zCovariance_.cols() == d;
  samplers::EuclideanMetric metric(d + dw, dw > 0 ? samplers::MetricKind::Conditional
                                           : dense ? samplers::MetricKind::Dense
                                                   : samplers::MetricKind::Diagonal);
  // z's (co)variances from the caller, w given z from the chain's moments.
  Eigen::MatrixXd regression = Eigen::MatrixXd::Zero(dw, d);  // the metric's B
  const auto setMetric = [&] {
    const Eigen::MatrixXd zBlock = dense ? zCovariance_ : Eigen::MatrixXd(zVariances.asDiagonal());
    if (dw == 0) {
      if (dense) return metric.setInverseDense(zBlock);
      return metric.setInverseDiagonal(zVariances);
    }
    const JointMoments& m = metricMoments_;
    const WGivenZ w = wGivenZ(m.n, m.z, m.w, m.ww, m.zz, m.wz);
    regression = w.regression;
    // The approximation's z covariance, unless it is more than twice as wide (in sd, in some
    // direction) as the chain's own draws: at the start the approximation is the prior, which
    // can be a hundred times wider than the tilted distribution, and NUTS would then run to its
    // maximum depth on every transition. (The chain's own moments lag behind a shrinking
    // approximation, so they are not used otherwise.)
    const bool useChain = w.zCovariance.size() > 0 && widerThan(zBlock, w.zCovariance, 4.0);
    metric.setInverseConditional(useChain ? w.zCovariance : zBlock, w.regression, w.residual);
  };
  const auto recordW = [&](const Eigen::VectorXd& q) {
    if (dw > 0) window_.add(q, d);
  };
  const bool first = stepSize_ == 0.0;
  const bool adapt = first || (options_.readaptEvery > 0 && calls_ % options_.readaptEvery == 0);
  ++calls_;
  // At a re-adaptation the metric moves to the draws since the previous one (when there are
  // enough), and the step size is adapted to it below.
  if (adapt && !first && window_.n >= std::max<std::size_t>(50, 4 * (d_ + 2))) {
    metricMoments_ = window_;
    window_.reset(d, dw);
  }
  setMetric();
  samplers::PhasePoint point(d + dw);
  point.q = position_;
  if (first) {
    // z at the cavity's mean, w uniform on (-2, 2) as Stan's inits: all-zero locals sit in the
    // neck of a hierarchical model's funnel, where a chain can stay.
    const Validity ok = checkDistribution(cavity);
    if (ok.ok()) point.q.head(d) = toStandard(cavity).m;
    std::uniform_real_distribution<double> uniform(-2.0, 2.0);
    for (Eigen::Index k = d; k < d + dw; ++k) point.q(k) = uniform(rng_);
    nuts.evaluate(point);
    ++gradients_;
    if (!std::isfinite(point.logDensity)) point.q = position_;
  } else if (adapt && restartFrom != nullptr) {
    // z from the approximation, w where the chain stands; kept only where the density is finite.
    const Eigen::LLT<Eigen::MatrixXd> chol(restartFrom->S);
    if (chol.info() == Eigen::Success) {
      std::normal_distribution<double> normal;
      Eigen::VectorXd xi(d);
      for (Eigen::Index k = 0; k < d; ++k) xi(k) = normal(rng_);
      point.q.head(d) = restartFrom->m + chol.matrixL() * xi;
      nuts.evaluate(point);
      ++gradients_;
      if (!std::isfinite(point.logDensity)) point.q = position_;
    }
  }
  nuts.evaluate(point);
  ++gradients_;
  // Dual averaging of the step size over `transitions`; with `collect`, the second half's w are
  // the chain's running moments from then on.
  const auto adaptStepSize = [&](std::size_t transitions, bool collect) {
    stepSize_ = samplers::initialStepSize(nuts, point, metric, stepSize_ > 0.0 ? stepSize_ : 1.0, rng_, gradients_);
    samplers::DualAveragingOptions dual;
    dual.delta = options_.targetAccept;
    samplers::StepSizeAdaptation adaptation(dual);
    adaptation.restart(stepSize_);
    double eps = stepSize_;
    if (collect) window_.reset(d, dw);
    for (std::size_t k = 0; k < transitions; ++k) {
      const samplers::TransitionStats s = nuts.transition(point, metric, eps, rng_);
      gradients_ += s.leapfrogs;
      eps = adaptation.learn(s.acceptStat);
      if (collect && 2 * k >= transitions) recordW(point.q);
    }
    stepSize_ = adaptation.final();
  };
  if (first && dw > 0) {
    // The first warm-up learns w's scales too: half with unit w scales, half with the learnt ones.
    adaptStepSize(options_.initialWarmup / 2, true);
    metricMoments_ = window_;
    setMetric();
    adaptStepSize(options_.initialWarmup - options_.initialWarmup / 2, false);
  } else if (adapt) {
    adaptStepSize(first ? options_.initialWarmup : options_.adaptTransitions, false);
  }
  Eigen::MatrixXd draws(d + dw, static_cast<Eigen::Index>(n));
  if (siteGradients != nullptr) siteGradients->resize(d, static_cast<Eigen::Index>(n));
  if (projectedGradients != nullptr) projectedGradients->resize(d, static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) {
    const samplers::TransitionStats s = nuts.transition(point, metric, stepSize_, rng_);
    gradients_ += s.leapfrogs;
    divergences_ += s.divergent;
    draws.col(static_cast<Eigen::Index>(k)) = point.q;
    recordW(point.q);
    if (siteGradients != nullptr)  // grad_z log p_i = eta1 + 2 eta2 z + grad_z f_i / beta
      siteGradients->col(static_cast<Eigen::Index>(k)) =
          beta * (point.gradient.head(d) - cavity.eta1 - 2.0 * (cavity.eta2 * point.q.head(d)));
    if (projectedGradients != nullptr)
      projectedGradients->col(static_cast<Eigen::Index>(k)) =
          point.gradient.head(d) + regression.transpose() * point.gradient.tail(dw);
  }
  position_ = point.q;
  return draws;
}

}  // namespace pvi::algorithms::ep
