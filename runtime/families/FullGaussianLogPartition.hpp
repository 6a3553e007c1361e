#pragma once
// The log-partition function of the full-covariance Gaussian and its gradient.
//
//   A(eta) = -1/4 eta1^T eta2^{-1} eta1 - 1/2 log det(-2 eta2) + D/2 log(2 pi)
//
// so that q(z) = exp(eta1^T z + z^T eta2 z - A(eta)). In standard parameters this is
// 1/2 m^T P m + 1/2 log det S + D/2 log(2 pi). The coefficient of the quadratic term is 1/4 with
// eta2^{-1} (equivalently 1/2 with (-2 eta2)^{-1} = S); design section 9 records a public PVI
// implementation that gets this coefficient wrong.
//
// Gradient convention: grad A(eta) = mu = (m, M = S + m m^T), where dA/d eta2 is taken with the
// D^2 entries of eta2 as independent coordinates: dA = m^T d eta1 + sum_ij M_ij d eta2_ij. For a
// symmetric perturbation that moves eta2_ij and eta2_ji together (i != j) by h, A therefore
// changes by 2 h M_ij.
//
// Both throw std::invalid_argument when eta is not a valid distribution.
#include "runtime/families/FullGaussianParams.hpp"

namespace pvi {

double logPartition(const FullNatural& eta);
FullMean gradLogPartition(const FullNatural& eta);

}  // namespace pvi
