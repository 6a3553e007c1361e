#pragma once
// Global VI on the natural parameters of q, the baseline PVI is compared with (Property 3.1 and
// 3.3; Ashman et al. 2022, "Partitioned Variational Inference", Sections 3.2-3.3 and 5). It sees all the data at once:
// each iteration draws eps (D x samples, from std::mt19937_64(roundSeed(seed, i))), evaluates f(z) = sum_j log p(y_j |
// z) at z = m + L eps, and with g = E[grad f], H = E[hess f] (Stein: sym(L^{-T} E[eps g^T]), as the clients do) takes
// one step:
//
//   Gradient:         eta <- eta + lr dF/deta, computed by the chain rule through (m, S):
//                       with gm = dF/dm = g + eta1_0 + 2 eta2_0 m and GS = dF/dS = H/2 + eta2_0 + P/2,
//                       dF/deta1 = S gm,  dF/deta2 = S gm m^T + m gm^T S + 2 S GS S
//                     (mean-field: v .* gm and 2 v^2 .* GS + 2 v .* gm .* m);
//   NaturalGradient:  eta <- (1 - s) eta + s (eta_0 + (g - H m, H / 2))      (Property 3.3).
//
// The chain-rule route is written independently of the clients' Fisher-product route
// (GaussianCalculus.hpp) although the two are algebraically equal; Property 3.1's test checks
// that synchronous PVI with one local gradient step reproduces these iterates. A step that would
// make q invalid is halved (at most maxHalvings times, then the run stops).
//
// The Stein Hessian uses the centred cross moment (centredCross in GaussianCalculus.hpp). With a
// full covariance the natural-gradient method needs more draws than dimensions (it refuses fewer).
//
// The prior must be exactly Gaussian (FactorModel::gaussianPrior) and representable in the
// family; q starts at the prior. No local latents.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/families/GaussianCalculus.hpp"
#include "runtime/model/FactorModel.hpp"

namespace pvi::algorithms {

enum class GlobalVIMethod { Gradient, NaturalGradient };

struct GlobalVIOptions {
  GlobalVIMethod method = GlobalVIMethod::Gradient;
  double stepSize = 1e-3;  // lr (Gradient) or s in (0, 1] (NaturalGradient)
  std::size_t iterations = 100;
  std::size_t samples = 16;
  std::uint64_t seed = 1;
  std::size_t maxHalvings = 20;
};

template <class Family>
struct GlobalVIResult {
  std::vector<typename Family::Natural> iterates;  // iterates[0] = the prior, then one per iteration
  std::size_t halvings = 0;
  bool stoppedInvalid = false;  // a step could not be made valid
};

template <class Family>
GlobalVIResult<Family> runGlobalVI(const FactorModel& model, const std::vector<double>& theta,
                                   const GlobalVIOptions& options);

}  // namespace pvi::algorithms
