#pragma once
// The running mean of a sequence of parameter vectors: Polyak-Ruppert averaging of an optimiser's
// iterates (PVI's local Adam, SFVI's server and silos).
#include <Eigen/Core>
#include <cstddef>

namespace pvi::optim {

class RunningMean {
 public:
  void add(const Eigen::VectorXd& x) {
    ++count_;
    if (count_ == 1)
      mean_ = x;
    else
      mean_ += (x - mean_) / static_cast<double>(count_);
  }
  void clear() { count_ = 0; }
  bool empty() const { return count_ == 0; }
  const Eigen::VectorXd& mean() const { return mean_; }  // valid when !empty()

 private:
  Eigen::VectorXd mean_;
  std::size_t count_ = 0;
};

}  // namespace pvi::optim
