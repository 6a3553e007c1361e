#pragma once
// The Monte Carlo gradient of a client's local free energy (LocalOptimiser.hpp) with respect to
// the white coordinates of q(z) (WhitenedCoordinates.hpp), by sticking the landing (Roeder, Wu and
// Duvenaud, 2017): the pathwise gradient of f + log cavity - log q at each draw z = m + L eps,
//   G(z) = grad f(z) + eta1 + 2 eta2 z + L^-T eps,   dF/dm = E[G],   dF/dL = lower(E[G eps^T]),
// from the sample moments of the draws (mean-field: G_i = ... + eps_i / sd_i). It is unbiased
// (the dropped score term of log q has mean zero), and where q is the exact optimum G(z) = 0 at
// every draw, so the noise vanishes as the fit converges. The entropy is in the L^-T eps term
// (E[L^-T eps eps^T] = L^-T, whose diagonal is 1 / L_ii); with exact expectations (eps moments 0
// and I) this is the closed form.
#include <Eigen/Core>

#include "runtime/algorithms/pvi/WhitenedCoordinates.hpp"
#include "runtime/estimation/Expectations.hpp"

namespace pvi::algorithms {

// `at` is q' (= fromWhite(o, white)) and L (or sd) its root; e the expectations at q'.
FullStable whiteGradientOf(const FullOrigin& o, const FullStable& white, const FullStable& at, const Eigen::MatrixXd& L,
                           const estimation::ExpectedDerivatives<FullGaussian>& e, const FullNatural& cavity);
MeanFieldStable whiteGradientOf(const MeanFieldOrigin& o, const MeanFieldStable& white, const MeanFieldStable& at,
                                const Eigen::VectorXd& sd, const estimation::ExpectedDerivatives<MeanFieldGaussian>& e,
                                const MeanFieldNatural& cavity);

// A client's private q(w | z) gets its gradient from estimateDerivatives (ExpectedDerivatives::local)
// and its white coordinates from ConditionalCoordinates.hpp.

}  // namespace pvi::algorithms
