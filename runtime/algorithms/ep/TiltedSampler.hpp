#pragma once
// One site's persistent NUTS chain over (z, w_i) on its tilted distribution (the EP paper's p_i,
// with the site's locals w_i sampled alongside and never leaving it):
//
//   log p_i(z, w_i) = eta1^T z + z^T eta2 z + f_i(z, w_i) / beta
//
// eta the cavity's natural parameters (theta - lambda_i / beta) and f_i the site's term of the
// model (its data's log likelihood with the locals' prior). Each call continues the chain from
// where the last one stopped. The diagonal metric takes z's variances from the current
// approximation (the caller's) and w's from the chain's own running variances; the step size is
// re-adapted by dual averaging at the first call and every `readaptEvery` calls.
#include <cstdint>
#include <memory>
#include <random>

#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/samplers/nuts/Nuts.hpp"

namespace pvi::algorithms::ep {

struct TiltedSamplerOptions {
  std::size_t adaptTransitions = 100;  // dual-averaging transitions at each re-adaptation
  std::size_t readaptEvery = 100;      // calls between re-adaptations (0: only the first)
  double targetAccept = 0.8;
  std::size_t maxDepth = 10;
  std::uint64_t seed = 1;
};

class TiltedSampler {
 public:
  TiltedSampler(std::shared_ptr<const estimation::LocalLikelihood> site, TiltedSamplerOptions options);

  // n draws of z (columns) from the tilted distribution with Gaussian part `cavity` and power
  // `beta`; `zVariances` sets the metric's z block (the approximation's marginal variances).
  // Throws samplers::SamplerError when the chain cannot move (an improper tilted distribution).
  Eigen::MatrixXd draw(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances, std::size_t n);

  std::size_t gradientEvaluations() const { return gradients_; }
  std::size_t divergences() const { return divergences_; }
  double stepSize() const { return stepSize_; }

 private:
  std::shared_ptr<const estimation::LocalLikelihood> site_;
  TiltedSamplerOptions options_;
  std::size_t d_, dw_;
  std::mt19937_64 rng_;
  Eigen::VectorXd position_;       // (z, w), where the chain stands
  Eigen::VectorXd wSum_, wSumSq_;  // running moments of the w draws, for the metric
  std::size_t wCount_ = 0;
  double stepSize_ = 0.0;  // 0: not adapted yet
  std::size_t calls_ = 0, gradients_ = 0, divergences_ = 0;
};

}  // namespace pvi::algorithms::ep
