#pragma once
// Which of several estimators of the same quantity is the least noisy, judged from their recent
// outputs: each keeps an exponential moving mean and variance (rate `rate`) of its estimates, and
// choice() is the one with the smallest moving variance, or estimator 0 before `warmup` updates.
// The target may move (the estimates follow a changing approximation); it moves alike for every
// estimator, so the comparison holds. SampledSites' LeastNoisy keeps one per site.
#include <cstddef>
#include <stdexcept>
#include <vector>

#include <Eigen/Core>

namespace pvi::algorithms::ep {

class EstimatorNoise {
 public:
  explicit EstimatorNoise(std::size_t estimators = 3, double rate = 0.05, std::size_t warmup = 3)
      : rate_(rate), warmup_(warmup), mean_(estimators), variance_(estimators, 0.0) {
    if (estimators == 0 || !(rate > 0.0 && rate < 1.0))
      throw std::invalid_argument("EstimatorNoise: at least one estimator and a rate in (0, 1)");
  }

  // One estimate of estimator k (all of an update's estimates have the same length).
  void add(std::size_t k, const Eigen::VectorXd& x) {
    Eigen::VectorXd& m = mean_.at(k);
    if (m.size() != x.size()) {  // the first estimate: the mean starts there
      m = x;
      variance_[k] = 0.0;
      return;
    }
    const Eigen::VectorXd dev = x - m;
    m += rate_ * dev;
    variance_[k] = (1.0 - rate_) * (variance_[k] + rate_ * dev.squaredNorm());
  }
  void endUpdate() { ++updates_; }

  std::size_t choice() const {
    if (updates_ < warmup_) return 0;
    std::size_t best = variance_.size();  // among the estimators that have given an estimate
    for (std::size_t k = 0; k < variance_.size(); ++k)
      if (mean_[k].size() > 0 && (best == variance_.size() || variance_[k] < variance_[best])) best = k;
    return best == variance_.size() ? 0 : best;
  }
  double variance(std::size_t k) const { return variance_.at(k); }

 private:
  double rate_;
  std::size_t warmup_, updates_ = 0;
  std::vector<Eigen::VectorXd> mean_;
  std::vector<double> variance_;
};

}  // namespace pvi::algorithms::ep
