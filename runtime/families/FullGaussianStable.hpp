#pragma once
// The stable optimisation parameterisation of the full-covariance Gaussian, for a reparameterised
// ELBO optimiser (e.g. Adam on Monte Carlo gradients):
//
//   (m, logCholesky), S = L L^T with L lower triangular,
//   L_ij = logCholesky_ij (i > j),  L_ii = exp(logCholesky_ii),  entries above the diagonal unused.
//
// Every finite lower-triangular logCholesky gives a positive-definite S, so an unconstrained
// optimiser cannot leave the family.
//
// Gradient chain rule. For a scalar objective F, the functions below turn its gradient with
// respect to (m, L) or (m, S) into its gradient with respect to (m, logCholesky), returned in a
// FullStable of the same shape (its upper triangle is zero):
//
//   from (dF/dm, dF/dL): dFdL(i, j) = dF/dL_ij for i >= j (the upper triangle is ignored).
//       d/dlogCholesky_ij = dF/dL_ij            (i > j)
//       d/dlogCholesky_ii = dF/dL_ii * L_ii     (since L_ii = exp(logCholesky_ii))
//     For the reparameterised ELBO term f(z), z = m + L eps, with g = grad f(z):
//       dF/dm = g, dF/dL = g eps^T (lower triangle).
//
//   from (dF/dm, dF/dS): dFdS is any D x D matrix G with dF = sum_ij G_ij dS_ij for every
//     symmetric perturbation dS. Both common conventions qualify and give the same answer: the
//     symmetric gradient (G = G^T, e.g. d log det S / dS = S^{-1}) and the gradient of a formula
//     that treats the D^2 entries of S as independent. Not accepted: a gradient over the distinct
//     entries S_ij (i <= j) that counts each off-diagonal pair once (that is G_ij + G_ji).
//     Then dF/dL = (G + G^T) L (lower triangle), followed by the rule above.
#include "runtime/families/FullGaussianParams.hpp"

namespace pvi {

FullStable toStable(const FullStandard& q);    // L = chol(S); throws std::invalid_argument if S is not SPD
FullStandard toStandard(const FullStable& q);  // S = L L^T; throws if q is not valid
Eigen::MatrixXd choleskyFactor(const FullStable& q);  // L: lower triangular, positive diagonal

FullStable stableGradientFromCholesky(const FullStable& at, const Eigen::VectorXd& dFdm, const Eigen::MatrixXd& dFdL);
FullStable stableGradientFromCovariance(const FullStable& at, const Eigen::VectorXd& dFdm,
                                        const Eigen::MatrixXd& dFdS);

}  // namespace pvi
