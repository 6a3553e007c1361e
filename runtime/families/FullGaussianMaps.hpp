#pragma once
// Maps between the natural, mean and standard parameters of the full-covariance Gaussian
// (definitions in FullGaussianParams.hpp). All solves and inverses go through a Cholesky
// factorisation; the covariance or precision returned is exactly symmetric.
//
// Each map requires its input to be a valid distribution (FullGaussianValidity.hpp) and throws
// std::invalid_argument with the check's reason otherwise (for example for a flat factor), or
// when the result overflows.
#include "runtime/families/FullGaussianParams.hpp"

namespace pvi {

FullStandard toStandard(const FullNatural& eta);  // m = P^{-1} eta1, S = P^{-1}, P = -2 eta2
FullNatural toNatural(const FullStandard& q);     // eta1 = S^{-1} m, eta2 = -S^{-1} / 2

FullMean toMean(const FullStandard& q);           // M = S + m m^T
FullStandard toStandard(const FullMean& mu);      // S = M - m m^T

FullMean toMean(const FullNatural& eta);
FullNatural toNatural(const FullMean& mu);

}  // namespace pvi
