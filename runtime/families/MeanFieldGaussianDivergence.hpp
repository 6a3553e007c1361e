#pragma once
// Closed-form KL divergence and entropy of mean-field Gaussians in standard parameters (the full
// family's formulas with diagonal covariances):
//
//   KL(q1 || q2) = 1/2 sum_i [ r_i - 1 - log r_i + (m2_i - m1_i)^2 / v2_i ],  r_i = v1_i / v2_i,
//   H(q)         = D/2 (1 + log 2 pi) + 1/2 sum_i log v_i,
//
// with r - 1 - log r computed as expm1(u) - u, u = log v1_i - log v2_i: each term is >= 0 and
// KL(q || q) == 0 exactly.
// Throw std::invalid_argument when an argument is not a valid distribution or dimensions differ.
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

double kl(const MeanFieldStandard& q1, const MeanFieldStandard& q2);  // KL(q1 || q2)
double entropy(const MeanFieldStandard& q);
double entropy(const MeanFieldStable& q);  // D/2 (1 + log 2 pi) + sum_i logSd_i

}  // namespace pvi
