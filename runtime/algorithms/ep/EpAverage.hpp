#pragma once
// The Polyak average of EP iterates over a range of iterations, taken where each variant's
// iterates are (nearly) unbiased: EP-eta's in the natural parameters, EP-mu's (and EP's) in the
// mean parameters. With one draw per update the iterates fluctuate around EP's fixed point; their
// average is the approximation a fit reports (tests/runtime/ep_updates_test.cpp measures the
// difference the parameterisation makes).
#include <algorithm>
#include <cstddef>

#include "runtime/algorithms/ep/EpUpdates.hpp"

namespace pvi::algorithms::ep {

class EpAverage {
 public:
  // Averages the iterations in (from, to].
  EpAverage(Eigen::Index d, std::size_t from, std::size_t to)
      : from_(from),
        to_(to),
        mean_{Eigen::VectorXd::Zero(d), Eigen::MatrixXd::Zero(d, d)},
        natural_(FullNatural::flat(d)) {}
  // The second half of `iterations`.
  EpAverage(Eigen::Index d, std::size_t iterations) : EpAverage(d, iterations / 2, iterations) {}

  // EpOptions::afterIteration's index and theta: added when the index is in range.
  void add(std::size_t iteration, const FullNatural& theta) {
    if (iteration <= from_ || iteration > to_) return;
    const FullMean mu = toMean(theta);
    mean_.m += mu.m;
    mean_.second += mu.second;
    natural_ += theta;
    ++count_;
  }

  std::size_t count() const { return count_; }

  // The average over both ranges (adjacent ones: the union of their iterations).
  EpAverage& operator+=(const EpAverage& other) {
    mean_.m += other.mean_.m;
    mean_.second += other.mean_.second;
    natural_ += other.natural_;
    count_ += other.count_;
    from_ = std::min(from_, other.from_);
    to_ = std::max(to_, other.to_);
    return *this;
  }

  // Needs count() > 0.
  FullStandard of(Variant v) const {
    const double n = static_cast<double>(count_);
    return v == Variant::EpEta ? toStandard((1.0 / n) * natural_) : toStandard(FullMean{mean_.m / n, mean_.second / n});
  }

 private:
  std::size_t from_, to_;
  FullMean mean_;
  FullNatural natural_;
  std::size_t count_ = 0;
};

}  // namespace pvi::algorithms::ep
