#pragma once
// Expectations of a client's term f(z, w) under q(z) q(w | z): the one place where the
// variational algorithms draw Monte Carlo samples of a model. Every local optimiser, SFVI's silo
// gradients and free-energy estimate goes through here.
//
// q(z) is given by its mean m and reparameterisation root (z = m + L eps with L the lower
// Cholesky factor of S, or z = m + sd .* eps for the mean-field family); q(w | z), the client's
// private locals, is a ConditionalGaussian (families/ConditionalGaussian.hpp), re-anchored at m:
//   w = mbar + C (z - m) + sdz .* (Lw xi),  sdz = s .* exp(G (z - m))  (G = 0 without a scale coupling).
// With n draws (eps_i, xi_i), eps first (a D x n block from standardNormals, then the dim(w) x n
// block of xi, both from `rng`), g_i = grad_z f, gw_i = grad_w f at (z_i, w_i), noise_i = w_i - E[w | z_i]
// and r_i = diag(1 / sdz_i) Lw^-T xi_i = d(-log q(w | z))/dw at the draw:
//
//   value   = mean_i f(z_i, w_i)                                      -> E[f]
//   gradZ   = mean_i (g_i - C^T r_i + G^T (1 - noise_i .* r_i))  -> d/dm of E[f] + H(q(w | z)) by
//             sticking the landing (w does not move with m: w - mbar = C L eps + ...);
//             E[grad_z f] when uncoupled
//   crossZ  = mean_i (g_i + C^T gw_i + G^T (1 + noise_i .* gw_i)) eps_i^T  (.* eps_i mean-field)
//             -> d/dL of the same (its lower triangle; the r terms cancel); E[g eps^T] = E[hess f] L
//             when uncoupled
//   hessZ   = Stein / Price: sym(L^{-T} crossZ^T)  (crossZ / sd) -> E[hess_zz f] (uncoupled only)
//   local   = the sticking-the-landing gradient of E[f] + H(q(w | z)) over q(w | z)'s parameters
//             (LocalGradient below), Gw_i = gw_i + r_i:
//               mean: E[Gw],  coupling: E[Gw eps^T] L^T,  sd: E[Gw .* noise] / s,
//               scaleCoupling: E[(Gw .* noise) eps^T] L^T,
//               unitLower: strictly lower part of E[(sdz .* Gw) xi^T],
//               skew, log tail (a shape: noise = sdz .* T(xi), r = h'(T(xi)) / sdz instead):
//               E[Gw .* sdz .* dT/dskew], E[Gw .* sdz .* dT/dlog tail]
//   gradW, hessW = E[grad_w f], diag E[hess_ww f] (Stein) when q(w | z) is independent of z and
//             uncorrelated (the natural-gradient optimisers' inputs).
//
// Importance-weighted locals (innerDraws K > 1; Geffner and Domke 2022, "locally enhanced
// bounds"): each draw z_i gets K draws w_ik ~ q(w | z_i), l_ik = f(z_i, w_ik) - log q(w_ik | z_i),
// and the term is F(z_i) = log mean_k exp(l_ik) <= log p(y | z_i) (for a partition's f), a bound
// that tightens with K, so that q(z) is fitted to a closer approximation of the marginal posterior
// where q(w | z) cannot follow p(w | z, y) (a random slope whose spread goes to 0 with its
// scale). With the self-normalised weights a_ik = exp(l_ik) / sum_k exp(l_ik):
//   value per draw = F(z_i) (the entropy of q(w | z) included, unlike f alone for K = 1);
//   gradZ  = mean_i sum_k a_ik g_ik  (the full reparameterisation gradient over m: with q(w | z)
//            parameterised at m, w and log q(w | z) do not move with m);
//   crossZ = mean_i (sum_k a_ik (g + C^T gw + G^T (1 + noise .* gw))_ik) eps_i^T  (likewise, over L);
//   local  = the doubly reparameterised gradient (Tucker et al. 2018): the formulas above with
//            Gw_ik weighted by K a_ik^2 and means over all n K draws (unbiased, and its signal does
//            not vanish as K grows, unlike the plain importance-weighted gradient's);
//   gradTheta = mean_i sum_k a_ik grad_theta f_ik.
// gradW and hessW are not estimated. K = 1 (with q's draws) gives the formulas above exactly.
//
// Laplace-proposed locals (laplaceLocals): for each draw z_i, Newton's method from q(w | z_i)'s
// mean finds the mode of f(z_i, .), and the K locals are drawn from N(mode, (-H)^-1) instead of
// q(w | z_i), with l_ik = f - log N(w_ik; mode, (-H)^-1). F(z_i) is the same kind of bound, much
// tighter where q(w | z) cannot follow p(w | z, y). The proposal moves with z, so gradZ and crossZ
// use Fisher's identity, grad_z log p(y | z) = E_{p(w | z, y)}[grad_z f(z, w)], estimated by the
// self-normalised weights: gradZ = mean_i sum_k a_ik g_ik and crossZ = mean_i (sum_k a_ik g_ik)
// eps_i^T (consistent as K grows, as is the bound). q(w | z) is then only Newton's start: it is
// fitted to the second-order expansion of f about its mean, E[f] ~ f(mu) + tr(H Sigma_w) / 2, whose
// gradient is grad_w f(mu(z_i)) over the mean (and the coupling, with eps_i^T L^T) and
// H_kk s_k + 1 / s_k over the sd (from the draws where H_kk < 0); the rest of its parameters get
// no gradient. Meant for K > 1: with K = 1 every weight is 1 and gradZ is the proposal's
// expectation of grad_z f, not Fisher's identity (the fit refuses it, fit/AlgorithmChoice.cpp).
//
// Sticking the landing (Roeder, Wu and Duvenaud 2017) drops the score term of log q, which has
// mean zero; where q is exact, every per-draw gradient is zero, so the noise vanishes as the fit
// converges. All expectations are unbiased; hessZ uses gradients only (no second derivatives).
// When the likelihood offers exactExpectations and `preferExact` is set (independent q(w) only),
// the closed form is used instead, crossZ = H L is derived from it, and no random numbers are
// consumed.
#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <random>
#include <vector>

#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/ConditionalGaussian.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::estimation {

// d/d(parameters) of E[f] + H(q(w | z)) for a q(w | z) anchored at m, shaped like the
// conditional (coupling and unitLower empty when it has none).
struct LocalGradient {
  Eigen::VectorXd mean;
  Eigen::MatrixXd coupling;
  Eigen::VectorXd sd;
  Eigen::MatrixXd scaleCoupling;
  Eigen::MatrixXd unitLower;  // strictly lower part; the diagonal and upper triangle are zero
  Eigen::VectorXd skew;       // over the shape's skews (empty without a shape)
  Eigen::VectorXd logTail;    // over the log of its tails
};

template <class Family>
struct ExpectedDerivatives {
  double value = 0.0;          // E[f]
  double valueVariance = 0.0;  // sample variance of the f(z_i, w_i) (0 when exact)
  Eigen::VectorXd drawValues;  // f(z_i, w_i) per draw (empty when exact); F(z_i) with innerDraws > 1 or laplaceLocals
  std::size_t samples = 0;     // n (0 when exact)
  bool exact = false;
  Eigen::VectorXd gradZ;     // E[grad_z f]
  Curvature<Family> hessZ;   // E[hess_zz f]
  Curvature<Family> crossZ;  // E[grad_z f eps^T]
  LocalGradient local;       // over q(w | z)'s parameters (empty without locals)
  Eigen::VectorXd gradW;     // E[grad_w f]         (independent, uncorrelated q(w) only)
  Eigen::VectorXd hessW;     // diag E[hess_ww f]   (likewise)
  // Moments of the draws of z themselves, for the sticking-the-landing gradient of -log q(z) and
  // of the cavity: mean eps and E[eps eps^T] (mean-field: E[eps .* eps]). Exact: 0 and I.
  Eigen::VectorXd epsMean;
  Curvature<Family> epsOuter;
  Eigen::VectorXd gradTheta;  // E[grad_theta f] (empty unless EstimationOptions::theta is given)
  // Per draw, the vector whose outer product with eps_i crossZ averages (D x n; only with
  // EstimationOptions::keepDrawCross): what a skewed q(z) needs for its shape's gradient.
  Eigen::MatrixXd drawCross;

  // Standard error of `value` as a Monte Carlo mean (0 when exact).
  double valueStandardError() const;
};

struct EstimationOptions {
  std::size_t samples = 16;
  bool preferExact = true;                              // use LocalLikelihood::exactExpectations if offered
  const std::vector<std::size_t>* miniBatch = nullptr;  // rows for evaluateMiniBatch; null = all data
  // Evaluate f at these hyperparameters (LocalLikelihood::evaluateAt) and estimate E[grad_theta f]
  // too; null: the likelihood's fixed theta. Monte Carlo only (closed forms and mini-batches carry
  // no theta gradient: asking for theta with a mini-batch is refused).
  const std::vector<double>* theta = nullptr;
  // The standard normals to use instead of drawing them from `rng` (SFVI: the server's eps for z,
  // shared by every silo, and each silo's own xi for its locals): eps is D x n, xi dim(w) x n;
  // `samples` is then ignored. Either may be given alone.
  const Eigen::MatrixXd* eps = nullptr;
  const Eigen::MatrixXd* xi = nullptr;
  bool keepDrawCross = false;  // fill ExpectedDerivatives::drawCross (Monte Carlo only)
  // K > 1: the importance-weighted term of each draw of z (see below); xi is then dim(w) x (n K),
  // K columns per draw of z. Ignored without locals.
  std::size_t innerDraws = 1;
  // Draw each z's K locals from the Laplace proposal at that z (LaplaceLocals.hpp) instead of from
  // q(w | z): see "Laplace-proposed locals" above. Ignored without locals.
  bool laplaceLocals = false;
};

// Throws std::invalid_argument on dimension mismatches and std::runtime_error when f or a
// gradient is not finite at a draw (the caller turns that into a failed update).
template <class Family>
ExpectedDerivatives<Family> estimateDerivatives(const LocalLikelihood& f, const Eigen::VectorXd& m,
                                                const typename FamilyTraits<Family>::Root& root,
                                                const ConditionalGaussian* locals, const EstimationOptions& options,
                                                std::mt19937_64& rng);

// Convenience: from q's standard parameters.
template <class Family>
ExpectedDerivatives<Family> estimateDerivatives(const LocalLikelihood& f, const typename Family::Standard& q,
                                                const ConditionalGaussian* locals, const EstimationOptions& options,
                                                std::mt19937_64& rng) {
  return estimateDerivatives<Family>(f, q.m, reparamRoot(q), locals, options, rng);
}

}  // namespace pvi::estimation
