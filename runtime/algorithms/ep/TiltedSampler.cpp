#include "runtime/algorithms/ep/TiltedSampler.hpp"

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
                                    std::size_t n) {
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
  samplers::EuclideanMetric metric(d + dw, samplers::MetricKind::Diagonal);
  metric.setInverseDiagonal(inverseMetric);

  samplers::PhasePoint point(d + dw);
  point.q = position_;
  nuts.evaluate(point);
  ++gradients_;
  const bool adapt = stepSize_ == 0.0 || (options_.readaptEvery > 0 && calls_ % options_.readaptEvery == 0);
  ++calls_;
  if (adapt) {
    stepSize_ = samplers::initialStepSize(nuts, point, metric, stepSize_ > 0.0 ? stepSize_ : 1.0, rng_, gradients_);
    samplers::DualAveragingOptions dual;
    dual.delta = options_.targetAccept;
    samplers::StepSizeAdaptation adaptation(dual);
    adaptation.restart(stepSize_);
    double eps = stepSize_;
    for (std::size_t k = 0; k < options_.adaptTransitions; ++k) {
      const samplers::TransitionStats s = nuts.transition(point, metric, eps, rng_);
      gradients_ += s.leapfrogs;
      eps = adaptation.learn(s.acceptStat);
    }
    stepSize_ = adaptation.final();
  }
  Eigen::MatrixXd draws(d, static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) {
    const samplers::TransitionStats s = nuts.transition(point, metric, stepSize_, rng_);
    gradients_ += s.leapfrogs;
    divergences_ += s.divergent;
    draws.col(static_cast<Eigen::Index>(k)) = point.q.head(d);
    if (dw > 0) {
      wSum_ += point.q.tail(dw);
      wSumSq_ += point.q.tail(dw).cwiseProduct(point.q.tail(dw));
      ++wCount_;
    }
  }
  position_ = point.q;
  return draws;
}

}  // namespace pvi::algorithms::ep
