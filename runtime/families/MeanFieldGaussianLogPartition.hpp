#pragma once
// The log-partition function of the mean-field Gaussian and its gradient: the full family's
// (FullGaussianLogPartition.hpp) with a diagonal eta2,
//
//   A(eta) = sum_i [ -1/4 eta1_i^2 / eta2_i - 1/2 log(-2 eta2_i) ] + D/2 log(2 pi),
//
// and grad A(eta) = mu = (m, v + m .* m), coordinate by coordinate (here every coordinate of eta2
// is a free parameter, so no symmetric pairing arises).
// Both throw std::invalid_argument when eta is not a valid distribution.
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

double logPartition(const MeanFieldNatural& eta);
MeanFieldMean gradLogPartition(const MeanFieldNatural& eta);

}  // namespace pvi
