#pragma once
// Natural-parameter arithmetic used by PVI: factors multiply by adding natural parameters, so
//   eta_q = eta_0 + sum_k eta_k,   cavity = eta_q - eta_k,   Delta_k = rho (eta_q' - eta_q).
// The operations are elementwise on (eta1, eta2), keep an exactly symmetric eta2 exactly
// symmetric, and apply to improper factors too: no validity is checked here (check the result
// with checkDistribution before using it as q). Operands of different dimensions throw
// std::invalid_argument.
#include "runtime/families/FullGaussianParams.hpp"
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

FullNatural operator+(const FullNatural& a, const FullNatural& b);
FullNatural operator-(const FullNatural& a, const FullNatural& b);
FullNatural operator-(const FullNatural& a);
FullNatural operator*(double s, const FullNatural& a);
FullNatural operator*(const FullNatural& a, double s);
FullNatural& operator+=(FullNatural& a, const FullNatural& b);
FullNatural& operator-=(FullNatural& a, const FullNatural& b);

MeanFieldNatural operator+(const MeanFieldNatural& a, const MeanFieldNatural& b);
MeanFieldNatural operator-(const MeanFieldNatural& a, const MeanFieldNatural& b);
MeanFieldNatural operator-(const MeanFieldNatural& a);
MeanFieldNatural operator*(double s, const MeanFieldNatural& a);
MeanFieldNatural operator*(const MeanFieldNatural& a, double s);
MeanFieldNatural& operator+=(MeanFieldNatural& a, const MeanFieldNatural& b);
MeanFieldNatural& operator-=(MeanFieldNatural& a, const MeanFieldNatural& b);

// max over all entries of |a - b|, for checking invariants such as eta_q == eta_0 + sum_k eta_k.
double maxAbsDifference(const FullNatural& a, const FullNatural& b);
double maxAbsDifference(const MeanFieldNatural& a, const MeanFieldNatural& b);

// <a, b> = a.eta1 . b.eta1 + sum_ij a.eta2_ij b.eta2_ij: the pairing of a natural and a mean
// parameter set, under which grad A(eta) = mu.
double inner(const FullNatural& eta, const FullMean& mu);
double inner(const MeanFieldNatural& eta, const MeanFieldMean& mu);

}  // namespace pvi
