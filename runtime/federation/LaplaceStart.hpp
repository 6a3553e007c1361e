#pragma once
// The start of a fit near the posterior (issue: scale-free fitting; Stan's Pathfinder makes the
// same point): instead of starting every client factor flat, so that q is the prior (or, for a
// refined prior, N(0, I)), the server finds the mode of the joint density and starts q at the
// Laplace approximation there.
//
//   1. The mode: L-BFGS at the server on log p(z, y) = log p(z) + sum_k f_k(z), from q's mean and
//      from uniform points, keeping the mode with the most mass (optim/LaplaceModes.hpp: a second,
//      poorer basin would otherwise hold the start). Every evaluation sends z to each participant
//      and gets f_k(z) and its gradient back (Participant::pointTerm): D + 1 numbers, never data.
//   2. The curvature: each participant returns the Hessian H_k of f_k at the mode, by central
//      differences of its gradient; twice, the second time with steps of 1/100 of the
//      conditional standard deviation 1 / sqrt(-H_ii) found the first time, so that the steps
//      follow the posterior's scale, not the units of z.
//   3. The factors: each participant's factor becomes the second-order expansion of f_k at the
//      mode, t_k = (g_k - H_k m, H_k / 2) in natural parameters (likelihoodNatural), so that
//      q = p_0 * prod_k t_k is N(m - H^-1 g, -H^-1) (one Newton step from the mode found), with
//      H = sum_k H_k + the prior's. The mean-field family keeps the diagonals. The deltas go
//      through the server's validity guard like any update, so eta_q == eta_0 + sum_k eta_k.
//
// Not applied (q stays as it was, and the report says why) when a participant has local latents
// (f_k is not a function of z alone), when D exceeds maxDimension, when the joint density is not
// finite at the start, or when the search hit its iteration limit where the curvature is not
// negative definite. The report says the posterior looks improper (`improper`) when the density
// keeps rising as a coordinate runs off to infinity, when it is flat along some direction at the
// mode, or when it still rises three Laplace standard deviations from the mode along one of the
// curvature's eigen-directions (a likelihood approaching its supremum at infinity, where the
// gradient vanished before |z| grew large: separable data under a flat prior).
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/federation/Federation.hpp"
#include "runtime/optim/Lbfgs.hpp"

namespace pvi::federation {

struct LaplaceStartOptions {
  optim::LbfgsOptions lbfgs;
  // Searches for the mode: from q's mean, and from starts - 1 points uniform in [-2, 2]^D drawn
  // with `seed`; q starts at the mode with the most mass (optim/LaplaceModes.hpp).
  std::size_t starts = 16;
  std::uint64_t seed = 1;
  std::size_t maxDimension = 1000;  // above: no D x D Hessians (2 D gradients per participant)
  std::vector<std::string> names;   // coordinate names for messages ("coordinate k" when empty)
};

struct LaplaceStartReport {
  bool applied = false;
  bool improper = false;  // the joint density rises without bound
  std::string summary;    // one line: what was done, or why not
  // When improper: what was seen ("the joint density is flat along 'gamma' at its mode") and the
  // coordinate it names. A density without a maximum whose latents all have proper priors (a
  // funnel, a collapsing scale) looks the same to the search; the caller tells them apart.
  std::string finding;
  std::size_t coordinate = 0;
  Eigen::VectorXd mode;  // the mode q started at (empty unless applied)
};

template <class Family>
LaplaceStartReport startAtLaplace(Federation<Family>& federation, const LaplaceStartOptions& options = {});

}  // namespace pvi::federation
