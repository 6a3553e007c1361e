#include "runtime/algorithms/ep/TiltedSampler.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>

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
  wSum_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(dw_));
  wSumSq_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(dw_));
}

Eigen::MatrixXd TiltedSampler::draw(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances,
                                    std::size_t n, const FullStandard* restartFrom, Eigen::MatrixXd* siteGradients) {
  return drawJoint(cavity, beta, zVariances, n, restartFrom, siteGradients).topRows(static_cast<Eigen::Index>(d_));
}

Eigen::MatrixXd TiltedSampler::drawJoint(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances,
                                         std::size_t n, const FullStandard* restartFrom,
                                         Eigen::MatrixXd* siteGradients) {
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
  samplers::EuclideanMetric metric(d + dw, dense ? samplers::MetricKind::Dense : samplers::MetricKind::Diagonal);
  // z's (co)variances from the caller, w's from the chain's running moments (1 before any).
  const auto setMetric = [&] {
    Eigen::VectorXd inverseMetric(d + dw);
    inverseMetric.head(d) = zVariances;
    if (dw > 0) {
      if (wCount_ > 1) {
        const double c = static_cast<double>(wCount_);
        inverseMetric.tail(dw) = ((wSumSq_ - wSum_.cwiseProduct(wSum_) / c) / (c - 1.0)).cwiseMax(1e-8);
      } else {
        inverseMetric.tail(dw).setOnes();
      }
    }
    if (metric.kind() == samplers::MetricKind::Diagonal) return metric.setInverseDiagonal(inverseMetric);
    Eigen::MatrixXd inverse = Eigen::MatrixXd(inverseMetric.asDiagonal());
    if (dense) inverse.topLeftCorner(d, d) = zCovariance_;
    inverse.diagonal().tail(dw) = inverseMetric.tail(dw);
    metric.setInverseDense(inverse);
  };
  const auto recordW = [&](const Eigen::VectorXd& q) {
    if (dw == 0) return;
    wSum_ += q.tail(dw);
    wSumSq_ += q.tail(dw).cwiseProduct(q.tail(dw));
    ++wCount_;
  };
  const bool first = stepSize_ == 0.0;
  const bool adapt = first || (options_.readaptEvery > 0 && calls_ % options_.readaptEvery == 0);
  ++calls_;
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
    if (collect) wSum_.setZero(), wSumSq_.setZero(), wCount_ = 0;
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
    setMetric();
    adaptStepSize(options_.initialWarmup - options_.initialWarmup / 2, false);
  } else if (adapt) {
    adaptStepSize(first ? options_.initialWarmup : options_.adaptTransitions, false);
  }
  Eigen::MatrixXd draws(d + dw, static_cast<Eigen::Index>(n));
  if (siteGradients != nullptr) siteGradients->resize(d, static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) {
    const samplers::TransitionStats s = nuts.transition(point, metric, stepSize_, rng_);
    gradients_ += s.leapfrogs;
    divergences_ += s.divergent;
    draws.col(static_cast<Eigen::Index>(k)) = point.q;
    recordW(point.q);
    if (siteGradients != nullptr)  // grad_z log p_i = eta1 + 2 eta2 z + grad_z f_i / beta
      siteGradients->col(static_cast<Eigen::Index>(k)) =
          beta * (point.gradient.head(d) - cavity.eta1 - 2.0 * (cavity.eta2 * point.q.head(d)));
  }
  position_ = point.q;
  return draws;
}

}  // namespace pvi::algorithms::ep
