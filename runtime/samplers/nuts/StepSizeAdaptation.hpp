#pragma once
// Dual averaging of the step size towards a target mean acceptance statistic (Hoffman & Gelman
// 2014, section 3.2; Stan's stepsize_adaptation with its defaults):
//   s_n = (1 - 1/(n + t0)) s_{n-1} + (delta - a_n) / (n + t0)
//   log eps_n = mu - sqrt(n) s_n / gamma,   log eps_bar_n = n^-kappa log eps_n + (1 - n^-kappa) log eps_bar_{n-1}
// with mu = log(10 eps_0); the averaged eps_bar is the step size after warm-up.
#include <cstddef>

namespace pvi::samplers {

struct DualAveragingOptions {
  double delta = 0.8;  // target acceptance statistic (Stan's adapt delta)
  double gamma = 0.05;
  double kappa = 0.75;
  double t0 = 10.0;
};

class StepSizeAdaptation {
 public:
  explicit StepSizeAdaptation(DualAveragingOptions options = {}) : options_(options) {}

  // Starts over, shrinking towards `stepSize` (mu = log(10 stepSize)).
  void restart(double stepSize);
  // The next step size after a transition with this acceptance statistic.
  double learn(double acceptStat);
  // The averaged step size, for after warm-up (the restart's step size if nothing was learnt since).
  double final() const;
  const DualAveragingOptions& options() const { return options_; }

 private:
  DualAveragingOptions options_;
  double restartStepSize_ = 1.0;
  double mu_ = 0.0;
  double sBar_ = 0.0;
  double xBar_ = 0.0;
  std::size_t counter_ = 0;
};

}  // namespace pvi::samplers
