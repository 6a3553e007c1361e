#pragma once
// Maps between the natural, mean and standard parameters of the mean-field Gaussian (definitions
// in MeanFieldGaussianParams.hpp). Each requires a valid distribution and throws
// std::invalid_argument with the check's reason otherwise (for example for a flat factor).
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

MeanFieldStandard toStandard(const MeanFieldNatural& eta);  // v = -1 / (2 eta2), m = eta1 .* v
MeanFieldNatural toNatural(const MeanFieldStandard& q);     // eta1 = m ./ v, eta2 = -1 / (2 v)

MeanFieldMean toMean(const MeanFieldStandard& q);           // M = v + m .* m
MeanFieldStandard toStandard(const MeanFieldMean& mu);      // v = M - m .* m

MeanFieldMean toMean(const MeanFieldNatural& eta);
MeanFieldNatural toNatural(const MeanFieldMean& mu);

}  // namespace pvi
