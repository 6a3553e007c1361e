#pragma once
// One site's persistent NUTS chain over (z, w_i) on its tilted distribution (the EP paper's p_i,
// with the site's locals w_i sampled alongside and never leaving it):
//
//   log p_i(z, w_i) = eta1^T z + z^T eta2 z + f_i(z, w_i) / beta
//
// eta the cavity's natural parameters (theta - lambda_i / beta) and f_i the site's term of the
// model (its data's log likelihood with the locals' prior). Each call continues the chain from
// where the last one stopped. The metric's z block is the current approximation's covariance (or
// its variances), or the chain's own z covariance where the approximation is more than twice as
// wide in sd (at the start, when it is the prior); w is given z by the linear regression of the
// chain's own w draws on its z draws (samplers::MetricKind::Conditional: a local that moves with a
// global, as a group offset with the intercept, moves along with it in one leapfrog), estimated
// over the draws between two re-adaptations (the first window also holds the first warm-up's
// last 100 draws) and used from the next; the step size is
// adapted by dual averaging at the first call (a longer warm-up that also learns w's scales,
// from z at the cavity's mean and w uniform on (-2, 2)) and every `readaptEvery` calls. At those calls
// the chain's z may restart from a draw of the current approximation (the paper's suggestion for
// approximately independent updates); the adaptation transitions that follow are its burn-in.
#include <cstdint>
#include <memory>
#include <random>

#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/samplers/nuts/Nuts.hpp"

namespace pvi::algorithms::ep {

struct TiltedSamplerOptions {
  std::size_t initialWarmup = 400;     // transitions of the first call's warm-up (step size, w's scales)
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
  // With `siteGradients`, its column k is grad_z f_i(z, w) at draw k (the site term's gradient,
  // without the cavity and the power), which the sampler has computed anyway.
  // With `projectedGradients`, its column k is grad_z log p_i + B' grad_w log p_i at draw k (the
  // whole tilted density's gradient, along w moving with z by the metric's regression B of w on
  // z, which does not depend on the draws of this call): Stein's identity with it is exact for a
  // Gaussian tilted distribution whose w given z follows B (SampledSites.hpp, Reference).
  Eigen::MatrixXd draw(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances, std::size_t n,
                       const FullStandard* restartFrom = nullptr, Eigen::MatrixXd* siteGradients = nullptr,
                       Eigen::MatrixXd* projectedGradients = nullptr);
  // The same, returning the whole (z, w) of every draw (z in the first rows): the locals' moments.
  Eigen::MatrixXd drawJoint(const FullNatural& cavity, double beta, const Eigen::VectorXd& zVariances, std::size_t n,
                            const FullStandard* restartFrom = nullptr, Eigen::MatrixXd* siteGradients = nullptr,
                            Eigen::MatrixXd* projectedGradients = nullptr);

  // A dense metric for z from now on: the approximation's covariance (the sites' tilted
  // distributions are near it; a diagonal metric on correlated globals needs long trajectories).
  // Empty: the diagonal `zVariances` of each call.
  void setGlobalCovariance(Eigen::MatrixXd covariance) { zCovariance_ = std::move(covariance); }

  std::size_t globalDim() const { return d_; }
  std::size_t localDim() const { return dw_; }
  std::size_t gradientEvaluations() const { return gradients_; }
  std::size_t divergences() const { return divergences_; }
  double stepSize() const { return stepSize_; }
  std::size_t calls() const { return calls_; }

 private:
  std::shared_ptr<const estimation::LocalLikelihood> site_;
  TiltedSamplerOptions options_;
  std::size_t d_, dw_;
  std::mt19937_64 rng_;
  Eigen::VectorXd position_;       // (z, w), where the chain stands
  Eigen::MatrixXd zCovariance_;    // empty: diagonal metric
  // Moments of the chain's draws for the metric's w block: those since the last re-adaptation,
  // and those the metric uses now.
  struct JointMoments {
    std::size_t n = 0;
    Eigen::VectorXd z, w, ww;  // sums of z, w and w^2
    Eigen::MatrixXd zz, wz;    // sums of z z' and w z'
    void reset(Eigen::Index d, Eigen::Index dw);
    void add(const Eigen::VectorXd& q, Eigen::Index d);
  };
  JointMoments window_, metricMoments_;
  double stepSize_ = 0.0;  // 0: not adapted yet
  std::size_t calls_ = 0, gradients_ = 0, divergences_ = 0;
};

}  // namespace pvi::algorithms::ep
