#pragma once
// The tilted moments of every site from its own persistent NUTS chain (TiltedSampler): what EP,
// EP-eta and EP-mu consume when the tilted distributions have no closed form. Each call draws
// `draws` transitions of the site's chain and returns their moments (z's mean and second moment);
// the locals w_i stay in the site's chain.
#include <memory>
#include <optional>
#include <vector>

#include "runtime/algorithms/ep/Ep.hpp"
#include "runtime/algorithms/ep/EstimatorNoise.hpp"
#include "runtime/algorithms/ep/TiltedSampler.hpp"

namespace pvi::algorithms::ep {

// How a site's moments come from its draws:
//   Draws  the draws' own moments (the paper's estimator).
//   Stein  Stein's identity against the Gaussian cavity N(m_c, S_c) (P_c = S_c^-1): with
//          g = grad_z f_i(z, w) / beta at each draw, exactly under the tilted distribution
//            E[z] = m_c + S_c E[g],   E[(z - m_c)(z - m_c)^T] = S_c + S_c E[g (z - m_c)^T]
//          (the second symmetrised). Unbiased as the Draws estimator is, but its noise scales
//          with the site's own term g instead of the whole tilted spread: with many sites, each
//          a small part of the posterior, the Draws noise summed over the sites swamps theta
//          (sqrt(m) times one site's), the Stein noise does not. The gradients are the
//          sampler's own, so it costs nothing more. But when a site dominates its tilted
//          distribution (few sites, or a cavity far from it) its gradients are large and the
//          estimate noisier than the draws' (on the clutter example, wildly so).
//   Adaptive  Stein's where the site is a small part of its tilted distribution, the site's
//          precision lambda_i / beta at most kSteinMaxShare (0.3) of the cavity's in every direction
//          (the largest |eigenvalue| of P_c^-1/2 Lambda_i P_c^-1/2, siteShare below); Reference
//          (below) elsewhere. The choice depends on the sites, not on the draw, so the estimate stays
//          unbiased. A fit uses it after its warm-up (runtime/fit/FitEp.cpp).
//   Reference  Stein's identity as a control variate with the current approximation q = N(m, S)
//          as reference instead of the cavity: with grad = grad_z log p_i(z, w) (cavity and site),
//          E[grad] = 0 and E[grad (z - m)^T] = -I under the tilted distribution, so
//            E[z] = E[z + S grad],
//            E[(z - m)(z - m)^T] = S + E[(z - m)(z - m)^T + sym(S grad (z - m)^T)]
//          hold for any fixed m and S. With the cavity as (m, S) this is Stein's estimate above;
//          with q, which the tilted distribution approaches at EP's fixed point whatever the
//          site's share, both are exact (zero noise) for a Gaussian tilted distribution equal to
//          q, and the noise left is that of the tilted distribution's departure from q. It
//          serves dominant sites (few sites); on many weak ones (contraception) Stein's against the
//          cavity gave the sds closer to Stan's (tau's 0.955-0.974 of it against 0.884-0.937).
//          The gradient is the whole (z, w) gradient projected along w = B z (TiltedSampler),
//          which makes the identity exact for a Gaussian (z, w) whose w given z follows B; z's
//          gradient alone carries the locals' noise. On Six Cities (2 sites) at 3,000
//          iterations it took the worst mean error over three seeds from 0.09-0.19 sd (the
//          draws' moments) to 0.07. Before the first setApproximation there is no q, and the
//          draws' own moments are used.
//   LeastNoisy  each site's draws give all three estimates (the draws', Stein's against the
//          cavity, the reference's against q) and the site uses the one whose estimates have
//          spread least over its recent updates (EstimatorNoise: an exponential moving variance,
//          rate 0.05, of the estimates whitened by q, after 3 updates with the draws' own). Which
//          one wins depends on where the fit is: while q is far from the tilted distributions
//          both control variates can be far noisier than the draws (Six Cities' 2 dominant
//          sites, contraception's 60 weak ones against a wide prior), and on the EP
//          paper's hierarchical logistic regression (16 sites) they are far quieter from the
//          first iterations, where the draws' noise alone carried the sites past their
//          cavities' edge in most runs. A fit uses it while it warms up (runtime/fit/FitEp.cpp).
enum class MomentEstimator { Draws, Stein, Adaptive, Reference, LeastNoisy };
inline constexpr double kSteinMaxShare = 0.3;  // the default of SampledSites::setSteinMaxShare

// max |eigenvalue| of P_c^-1/2 Lambda P_c^-1/2, the site's precision Lambda = -2 (theta - cavity).eta2
// against the cavity's P_c = -2 cavity.eta2; infinite for an improper cavity.
double siteShare(const FullNatural& theta, const FullNatural& cavity);

class SampledSites {
 public:
  // One chain per site term, seeded from `options.seed` and the site's index.
  SampledSites(const std::vector<std::shared_ptr<const estimation::LocalLikelihood>>& sites, std::size_t draws,
               TiltedSamplerOptions options);

  // The metric's z block for the next draws: the current approximation's marginal variances.
  void setGlobalVariances(const Eigen::VectorXd& variances) { variances_ = variances; }
  // The current approximation: its covariance is the metric's z block (dense), and with
  // `restart` the chains' z restarts from its draws at every re-adaptation.
  void setApproximation(const FullStandard& q, bool restart);
  // Plain EP on sampled moments: return the moments of unbiasedNatural(draws) (EpUpdates.hpp), so
  // that EP's update grad A*(mu_hat) is that estimate; needs more than D + 2 draws.
  void setUnbiasedNatural(bool on) { unbiased_ = on; }
  void setMomentEstimator(MomentEstimator e) { estimator_ = e; }
  void setSteinMaxShare(double share) { steinMaxShare_ = share; }

  // For runEp: nothing when the chain could not move (samplers::SamplerError: an improper tilted
  // distribution).
  TiltedMoments<FullGaussian> moments();

  const TiltedSampler& sampler(std::size_t site) const { return samplers_.at(site); }
  TiltedSampler& sampler(std::size_t site) { return samplers_.at(site); }
  std::size_t size() const { return samplers_.size(); }
  // Summed over the sites' chains.
  std::size_t gradientEvaluations() const;
  std::size_t divergences() const;

 private:
  std::vector<TiltedSampler> samplers_;
  std::size_t draws_;
  Eigen::VectorXd variances_;
  std::optional<FullStandard> restartFrom_;
  bool unbiased_ = false;
  MomentEstimator estimator_ = MomentEstimator::Draws;
  std::optional<FullNatural> currentNatural_;
  std::optional<FullStandard> current_;
  std::optional<Eigen::MatrixXd> currentFactor_;  // current_'s lower Cholesky factor, for LeastNoisy
  double steinMaxShare_ = kSteinMaxShare;  // the approximation's natural parameters
  std::vector<EstimatorNoise> noise_;  // LeastNoisy's record per site: 0 the draws', 1 Stein's, 2 the reference's
};

// The Stein estimate above from draws z (columns) and their site gradients g = grad_z f_i.
FullMean steinMoments(const FullNatural& cavity, double beta, const Eigen::MatrixXd& z, const Eigen::MatrixXd& g);
// The Reference estimate above with reference N(m, S) `reference`, from draws z (columns) and
// their tilted density's gradients (TiltedSampler's projected gradients).
FullMean referenceMoments(const FullStandard& reference, const Eigen::MatrixXd& z, const Eigen::MatrixXd& grad);

}  // namespace pvi::algorithms::ep
