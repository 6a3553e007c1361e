// Stan's windowed metric adaptation (stan/mcmc/windowed_adaptation.hpp, var_adaptation.hpp,
// covar_adaptation.hpp), reimplemented: the same windows, Welford estimates and regularisation
//   M^{-1} = n / (n + 5) * Sigma_hat + 1e-3 * 5 / (n + 5) * I.
#include <Eigen/Core>
#include <optional>

#include "runtime/samplers/nuts/MetricAdaptation.hpp"
#include "runtime/samplers/nuts/RunningMoments.hpp"

namespace pvi::samplers {

namespace {

class WindowedAdaptation final : public MetricAdaptation {
 public:
  WindowedAdaptation(std::size_t warmup, WindowOptions o) : warmup_(warmup), o_(o) {
    if (warmup < 20) {
      enabled_ = false;  // Stan: too short to adapt the metric at all
    } else if (o_.initBuffer + o_.baseWindow + o_.termBuffer > warmup) {
      o_.initBuffer = static_cast<std::size_t>(0.15 * static_cast<double>(warmup));
      o_.termBuffer = static_cast<std::size_t>(0.1 * static_cast<double>(warmup));
      o_.baseWindow = warmup - (o_.initBuffer + o_.termBuffer);
    }
    windowSize_ = o_.baseWindow;
    nextWindowEnd_ = o_.initBuffer + windowSize_ - 1;
  }

  void start(const PhasePoint& initial, EuclideanMetric& metric) override {
    metric = EuclideanMetric(initial.q.size(), metric.kind());
    moments_.emplace(initial.q.size(), metric.kind() == MetricKind::Dense);
  }

  AdaptationStep observe(std::size_t iteration, const PhasePoint& draw, EuclideanMetric& metric) override {
    AdaptationStep step;
    if (!enabled_) return step;
    if (inWindow(iteration)) moments_->add(draw.q);
    if (iteration == nextWindowEnd_ && iteration != warmup_) {
      computeNextWindow(iteration);
      const double n = static_cast<double>(moments_->count());
      const double shrink = n / (n + 5.0), ridge = 1e-3 * 5.0 / (n + 5.0);
      if (metric.kind() == MetricKind::Dense) {
        Eigen::MatrixXd c = shrink * moments_->covariance();
        c.diagonal().array() += ridge;
        metric.setInverseDense(c);
      } else {
        metric.setInverseDiagonal((shrink * moments_->variance()).array() + ridge);
      }
      moments_->restart();
      step.metricChanged = step.restartStepSize = true;
    }
    return step;
  }

 private:
  bool inWindow(std::size_t i) const { return i >= o_.initBuffer && i < warmup_ - o_.termBuffer && i != warmup_; }
  void computeNextWindow(std::size_t i) {
    const std::size_t lastEnd = warmup_ - o_.termBuffer - 1;
    if (nextWindowEnd_ == lastEnd) return;
    windowSize_ *= 2;
    nextWindowEnd_ = i + windowSize_;
    if (nextWindowEnd_ != lastEnd && nextWindowEnd_ + 2 * windowSize_ >= warmup_ - o_.termBuffer)
      nextWindowEnd_ = lastEnd;
  }

  std::size_t warmup_;
  WindowOptions o_;
  bool enabled_ = true;
  std::size_t windowSize_ = 0, nextWindowEnd_ = 0;
  std::optional<RunningMoments> moments_;
};

}  // namespace

std::unique_ptr<MetricAdaptation> makeWindowedAdaptation(std::size_t warmup, WindowOptions options) {
  return std::make_unique<WindowedAdaptation>(warmup, options);
}

}  // namespace pvi::samplers
