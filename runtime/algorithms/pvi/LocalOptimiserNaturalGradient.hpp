#pragma once
// The damped natural-gradient fixed point of eq. (4) (Ashman et al. 2022, "Partitioned Variational Inference",
// Section 3.3):
//
//   eta_k <- (1 - s) eta_k + s d/dmu E_q_k[f_k],   q_k = cavity * t_k,  eta_qk = eta_cav + eta_k,
//
// iterated as the client's inner loop. For the Gaussian, d/dmu E_q[f] = (g - H m, H / 2) with
// g = E_q[grad f] and H = E_q[hess f] (GaussianCalculus.hpp). H comes from
//   - the likelihood's exactExpectations hook when it has one and useExactExpectations is set
//     (closed form, deterministic: conjugate models reach the exact posterior to rounding), else
//   - the gradient-only Stein / Price estimator E[H] ~= sym(E[S^{-1} (z - m) grad f^T]) from
//     `samples` reparameterised draws per iteration (Expectations.hpp).
// The eq. (4) step is exactly natural-gradient ascent on F_k with step s; for a Gaussian f with
// exact H and s = 1 it lands on the local optimum in one iteration.
//
// Validity: when a step would make q_k invalid (precision not positive definite, non-finite),
// s is halved, at most maxHalvings times; if no valid step exists at the first iteration the
// update fails, at later iterations the loop stops at the last valid point.
//
// Local latents (q(w_k) mean-field, independent of z; design section 6): in each iteration the
// same draws give E[grad_w f] and diag E[hess_ww f], and q(w) takes the same damped fixed-point
// step with no cavity (p(w | z) is inside f_k): eta_w <- (1 - s) eta_w + s (g_w - H_w m_w, H_w / 2),
// simultaneously with the z step (a damped Jacobi sweep; s < 1 keeps it stable).
//
// Stops after maxSteps iterations, or earlier when the largest change of eta_k (and eta_w) is at
// most tolerance * max(1, max |eta_k|).
#include <cstddef>

#include "runtime/federation/LocalOptimiser.hpp"

namespace pvi::algorithms {

struct NaturalGradientOptions {
  double stepSize = 0.5;  // s
  std::size_t maxSteps = 50;
  std::size_t samples = 32;  // Monte Carlo draws per iteration (unused with exact expectations)
  double tolerance = 1e-12;  // relative change of eta_k at which to stop
  std::size_t maxHalvings = 20;
  bool useExactExpectations = true;  // use LocalLikelihood::exactExpectations when available
};

template <class Family>
class NaturalGradientOptimiser final : public federation::LocalOptimiser<Family> {
 public:
  explicit NaturalGradientOptimiser(NaturalGradientOptions options = {});
  federation::LocalSolution<Family> optimise(const federation::LocalProblem<Family>& problem) const override;
  std::string name() const override { return "natural-gradient fixed point (eq. 4)"; }
  const NaturalGradientOptions& options() const { return options_; }

 private:
  NaturalGradientOptions options_;
};

}  // namespace pvi::algorithms
