#include "runtime/samplers/nuts/StepSizeAdaptation.hpp"

#include <algorithm>
#include <cmath>

namespace pvi::samplers {

void StepSizeAdaptation::restart(double stepSize) {
  restartStepSize_ = stepSize;
  mu_ = std::log(10.0 * stepSize);
  sBar_ = 0.0;
  xBar_ = 0.0;
  counter_ = 0;
}

double StepSizeAdaptation::learn(double acceptStat) {
  ++counter_;
  const double n = static_cast<double>(counter_);
  acceptStat = std::min(1.0, acceptStat);
  const double eta = 1.0 / (n + options_.t0);
  sBar_ = (1.0 - eta) * sBar_ + eta * (options_.delta - acceptStat);
  const double x = mu_ - sBar_ * std::sqrt(n) / options_.gamma;
  const double xEta = std::pow(n, -options_.kappa);
  xBar_ = (1.0 - xEta) * xBar_ + xEta * x;
  return std::exp(x);
}

double StepSizeAdaptation::final() const { return counter_ == 0 ? restartStepSize_ : std::exp(xBar_); }

}  // namespace pvi::samplers
