// The metric that minimises the Fisher divergence between the target and a diagonal-affine map of
// a standard normal, M^{-1}_ii = sqrt(var(q_i) / var(d/dq_i log p)) (Seyboldt, Carlson and
// Carpenter, "Preconditioning Hamiltonian Monte Carlo by minimizing Fisher divergence", the
// adaptation of the nutpie sampler). For a Gaussian target with diagonal covariance it is the
// covariance itself, from both ends of the draws: the gradients carry information the positions
// alone take a long window to give. Schedule in MetricAdaptation.hpp (FisherOptions).
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <optional>

#include "runtime/samplers/nuts/MetricAdaptation.hpp"
#include "runtime/samplers/nuts/RunningMoments.hpp"

namespace pvi::samplers {

namespace {

constexpr double kLowest = 1e-10, kHighest = 1e10;  // the metric's diagonal stays in this range

// Running variances of positions and gradients.
class DrawGradientMoments {
 public:
  explicit DrawGradientMoments(Eigen::Index dim) : draws_(dim), gradients_(dim) {}
  void add(const PhasePoint& z) {
    draws_.add(z.q);
    gradients_.add(z.gradient);
  }
  std::size_t count() const { return draws_.count(); }
  // sqrt(var(q) / var(g)) per coordinate, clamped; the previous value where that is not finite.
  void fisherDiagonal(Eigen::VectorXd& diagonal) const {
    for (Eigen::Index i = 0; i < diagonal.size(); ++i) {
      const double r = std::sqrt(draws_.sumOfSquares()[i] / gradients_.sumOfSquares()[i]);
      if (std::isfinite(r) && r > 0.0) diagonal[i] = std::clamp(r, kLowest, kHighest);
    }
  }

 private:
  RunningMoments draws_, gradients_;
};

class FisherAdaptation final : public MetricAdaptation {
 public:
  FisherAdaptation(std::size_t warmup, FisherOptions o) : o_(o) {
    const double w = static_cast<double>(warmup);
    earlyEnd_ = static_cast<std::size_t>(o.early * w);
    finalWindowStart_ = warmup - static_cast<std::size_t>(o.finalWindow * w);
  }

  void start(const PhasePoint& initial, EuclideanMetric& metric) override {
    const Eigen::Index d = initial.q.size();
    metric = EuclideanMetric(d, MetricKind::Diagonal);
    // 1 / |g| says nothing where the gradient vanishes (a flat direction at the start): 1 there.
    diagonal_.resize(d);
    for (Eigen::Index i = 0; i < d; ++i) {
      const double g = std::abs(initial.gradient[i]);
      diagonal_[i] = std::isfinite(g) && g > 1e-8 ? std::clamp(1.0 / g, kLowest, kHighest) : 1.0;
    }
    metric.setInverseDiagonal(diagonal_);
    foreground_.emplace(d);
    background_.emplace(d);
  }

  AdaptationStep observe(std::size_t iteration, const PhasePoint& draw, EuclideanMetric& metric) override {
    AdaptationStep step;
    if (iteration + 1 == finalWindowStart_) {
      step.restartStepSize = true;  // the metric is final: tune the step size to it alone
      return step;
    }
    if (iteration >= finalWindowStart_) return step;
    if (!draw.q.allFinite() || !draw.gradient.allFinite()) return step;
    foreground_->add(draw);
    background_->add(draw);
    const std::size_t every = iteration < earlyEnd_ ? o_.earlySwitchEvery : o_.switchEvery;
    if (background_->count() >= every) {
      foreground_ = background_;
      background_.emplace(draw.q.size());
    }
    if (foreground_->count() >= 3) {
      foreground_->fisherDiagonal(diagonal_);
      metric.setInverseDiagonal(diagonal_);
      step.metricChanged = true;
    }
    return step;
  }

 private:
  FisherOptions o_;
  std::size_t earlyEnd_ = 0, finalWindowStart_ = 0;
  Eigen::VectorXd diagonal_;
  std::optional<DrawGradientMoments> foreground_, background_;
};

}  // namespace

std::unique_ptr<MetricAdaptation> makeFisherAdaptation(std::size_t warmup, FisherOptions options) {
  return std::make_unique<FisherAdaptation>(warmup, options);
}

}  // namespace pvi::samplers
