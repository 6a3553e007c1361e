#pragma once
// How a chain learns its metric during warm-up. The chain calls start() once at the initial
// point, then observe() after every warm-up transition with the new draw (its position and
// gradient); observe() may change the metric and says what the step size should do.
#include <cstddef>
#include <memory>

#include "runtime/samplers/nuts/Metric.hpp"
#include "runtime/samplers/nuts/PhasePoint.hpp"

namespace pvi::samplers {

// Which estimate of the metric warm-up makes (docs/sampling.md compares them).
enum class Adaptation {
  Fisher,   // the diagonal minimising the Fisher divergence, sqrt(var(draws) / var(gradients)) (nutpie)
  Windowed  // Stan's windowed variance (diagonal) or covariance (dense) of the draws
};

struct AdaptationStep {
  bool metricChanged = false;
  // Search a new first step size and restart dual averaging from it (Stan does this at the end of
  // each window; the Fisher schedule at the start of its final step-size window).
  bool restartStepSize = false;
};

class MetricAdaptation {
 public:
  virtual ~MetricAdaptation() = default;
  virtual void start(const PhasePoint& initial, EuclideanMetric& metric) = 0;
  virtual AdaptationStep observe(std::size_t iteration, const PhasePoint& draw, EuclideanMetric& metric) = 0;
};

// Stan's windows (windowed_adaptation): an initial buffer with the unit metric, then windows of
// base, 2 base, 4 base, ... iterations (the last stretched to the terminal buffer) at whose ends
// the metric becomes the regularised estimate of the window's draws, then a terminal buffer in
// which only the step size adapts. Stan's defaults are 75 / 25 / 50; a warm-up too short for them
// uses 15% / 75% / 10% as Stan does.
struct WindowOptions {
  std::size_t initBuffer = 75;
  std::size_t baseWindow = 25;
  std::size_t termBuffer = 50;
};

// The Fisher schedule (after nutpie): the metric starts as 1 / |gradient| at the initial point;
// every warm-up draw before the final step-size window (the last `finalWindow` fraction) feeds two
// running estimates of var(draws) and var(gradients), and the metric is updated after every draw
// from the older one, which is replaced by the younger one every `switchEvery` draws
// (`earlySwitchEvery` in the first `early` fraction): the metric forgets the early transient fast.
struct FisherOptions {
  double early = 0.3;
  double finalWindow = 0.15;
  std::size_t earlySwitchEvery = 10;
  std::size_t switchEvery = 80;
};

std::unique_ptr<MetricAdaptation> makeWindowedAdaptation(std::size_t warmup, WindowOptions options);
std::unique_ptr<MetricAdaptation> makeFisherAdaptation(std::size_t warmup, FisherOptions options);

}  // namespace pvi::samplers
