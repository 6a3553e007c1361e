#pragma once
// Expectations of a client's term f(z, w) under q(z) q(w): the one place where PVI draws Monte
// Carlo samples of a model. Every local optimiser and free-energy estimate goes through here.
//
// q(z) is given by its mean m and reparameterisation root (z = m + L eps with L the lower
// Cholesky factor of S, or z = m + sd .* eps for the mean-field family); q(w), the client's
// private locals, is mean-field: w = mw + sdw .* xi. With n draws (eps_i, xi_i), eps first (a
// D x n block from standardNormals, then the dim(w) x n block of xi, both from `rng`):
//
//   value   = mean_i f(z_i, w_i)                       -> E[f]
//   gradZ   = mean_i g_i,  g_i = grad_z f(z_i, w_i)      -> E[grad_z f]
//   crossZ  = mean_i g_i eps_i^T   (g_i .* eps_i)        -> E[g eps^T] = E[hess f] L  (pathwise
//             gradient of E[f] with respect to L: its lower triangle)
//   hessZ   = Stein / Price: sym(L^{-T} crossZ^T)  (crossZ / sd) -> E[hess_zz f]
//   gradW, crossW = mean_i gw_i .* xi_i, hessW = crossW / sdw  for the locals.
//
// All three expectations over z are unbiased; hessZ uses gradients only (no second derivatives).
// When the likelihood offers exactExpectations and `preferExact` is set, the closed form is used
// instead, crossZ = H L is derived from it, and no random numbers are consumed.
#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <random>
#include <vector>

#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::estimation {

template <class Family>
struct ExpectedDerivatives {
  double value = 0.0;          // E[f]
  double valueVariance = 0.0;  // sample variance of the f(z_i, w_i) (0 when exact)
  std::size_t samples = 0;     // n (0 when exact)
  bool exact = false;
  Eigen::VectorXd gradZ;     // E[grad_z f]
  Curvature<Family> hessZ;   // E[hess_zz f]
  Curvature<Family> crossZ;  // E[grad_z f eps^T]
  Eigen::VectorXd gradW;     // E[grad_w f]
  Eigen::VectorXd hessW;     // diag E[hess_ww f]
  Eigen::VectorXd crossW;    // E[grad_w f .* xi]
  // Moments of the draws themselves, for sticking-the-landing gradients (the pathwise gradient of
  // -log q at each draw, whose noise cancels that of grad f where q fits): mean eps and
  // E[eps eps^T] (mean-field: E[eps .* eps]), mean xi and E[xi .* xi]. Exact: 0 and I.
  Eigen::VectorXd epsMean;
  Curvature<Family> epsOuter;
  Eigen::VectorXd xiMean;
  Eigen::VectorXd xiSquare;
  Eigen::VectorXd gradTheta;  // E[grad_theta f] (empty unless EstimationOptions::theta is given)

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
};

// Throws std::invalid_argument on dimension mismatches and std::runtime_error when f or a
// gradient is not finite at a draw (the caller turns that into a failed update).
template <class Family>
ExpectedDerivatives<Family> estimateDerivatives(const LocalLikelihood& f, const Eigen::VectorXd& m,
                                                const typename FamilyTraits<Family>::Root& root,
                                                const MeanFieldStandard* locals, const EstimationOptions& options,
                                                std::mt19937_64& rng);

// Convenience: from q's standard parameters.
template <class Family>
ExpectedDerivatives<Family> estimateDerivatives(const LocalLikelihood& f, const typename Family::Standard& q,
                                                const MeanFieldStandard* locals, const EstimationOptions& options,
                                                std::mt19937_64& rng) {
  return estimateDerivatives<Family>(f, q.m, reparamRoot(q), locals, options, rng);
}

}  // namespace pvi::estimation
