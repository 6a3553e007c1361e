#pragma once
// Closed-form KL divergence and entropy of full-covariance Gaussians in standard parameters.
//
//   KL(q1 || q2) = 1/2 [ tr(S2^{-1} S1) + (m2 - m1)^T S2^{-1} (m2 - m1) - D + log det S2 - log det S1 ]
//   H(q)         = 1/2 log det(2 pi e S) = D/2 (1 + log 2 pi) + 1/2 log det S
//
// The KL is evaluated from the Cholesky factors L1, L2 as a sum of non-negative terms: with
// A = L2^{-1} L1 (lower triangular) and b = L2^{-1} (m2 - m1),
//   2 KL = sum_i (A_ii^2 - 1 - log A_ii^2) + sum_{i>j} A_ij^2 + |b|^2,
// where x - 1 - log x is computed as expm1(u) - u with u = log x. So KL >= 0 always,
// KL(q || q) == 0 exactly, and there is no cancellation of O(D) terms near q1 = q2.
//
// Throw std::invalid_argument when an argument is not a valid distribution or dimensions differ.
#include "runtime/families/FullGaussianParams.hpp"

namespace pvi {

double kl(const FullStandard& q1, const FullStandard& q2);  // KL(q1 || q2)
double entropy(const FullStandard& q);
double entropy(const FullStable& q);  // D/2 (1 + log 2 pi) + sum_i logCholesky_ii

}  // namespace pvi
