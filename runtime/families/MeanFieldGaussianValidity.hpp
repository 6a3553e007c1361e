#pragma once
// Validity checks for the mean-field Gaussian family; the same two notions as the full family
// (FullGaussianValidity.hpp):
//
//   a factor (checkFactor): eta1 and eta2 have the same length and every number is finite. It
//     may be improper (the flat factor, or some eta2_i >= 0).
//   a distribution (checkDistribution): additionally every precision p_i = -2 eta2_i is > 0 and
//     the derived means and variances are finite.
//
// Each check returns a Validity whose reason says what is wrong; none throws.
#include "runtime/families/MeanFieldGaussianParams.hpp"
#include "runtime/families/Validity.hpp"

namespace pvi {

Validity checkFactor(const MeanFieldNatural& eta);
Validity checkDistribution(const MeanFieldNatural& eta);
Validity checkDistribution(const MeanFieldMean& mu);      // variances E[z_i^2] - m_i^2 > 0
Validity checkDistribution(const MeanFieldStandard& q);   // variances > 0
Validity checkDistribution(const MeanFieldStable& q);     // finite, exp(2 logSd) finite and > 0

inline bool isValidFactor(const MeanFieldNatural& eta) { return checkFactor(eta).ok(); }
inline bool isValidDistribution(const MeanFieldNatural& eta) { return checkDistribution(eta).ok(); }
inline bool isValidDistribution(const MeanFieldMean& mu) { return checkDistribution(mu).ok(); }
inline bool isValidDistribution(const MeanFieldStandard& q) { return checkDistribution(q).ok(); }
inline bool isValidDistribution(const MeanFieldStable& q) { return checkDistribution(q).ok(); }

}  // namespace pvi
