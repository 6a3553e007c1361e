#pragma once
// The Polyak average of EP iterates over the last half of a run, taken where each variant's
// iterates are (nearly) unbiased: EP-eta's in the natural parameters, EP-mu's (and EP's) in the
// mean parameters. Tests of EP on sampled moments compare it with the exact posterior.
#include "runtime/algorithms/ep/EpUpdates.hpp"

namespace pvi::algorithms::ep {

class EpAverage {
 public:
  EpAverage(Eigen::Index d, std::size_t iterations)
      : iterations_(iterations),
        mean_{Eigen::VectorXd::Zero(d), Eigen::MatrixXd::Zero(d, d)},
        natural_(FullNatural::flat(d)) {}

  // EpOptions::afterIteration's arguments: adds theta once past half the iterations.
  void add(std::size_t iteration, const FullNatural& theta) {
    if (iteration <= iterations_ / 2) return;
    const FullMean mu = toMean(theta);
    mean_.m += mu.m;
    mean_.second += mu.second;
    natural_ += theta;
    ++count_;
  }

  FullStandard of(Variant v) const {
    const double n = static_cast<double>(count_);
    return v == Variant::EpEta ? toStandard((1.0 / n) * natural_) : toStandard(FullMean{mean_.m / n, mean_.second / n});
  }

 private:
  std::size_t iterations_;
  FullMean mean_;
  FullNatural natural_;
  std::size_t count_ = 0;
};

}  // namespace pvi::algorithms::ep
