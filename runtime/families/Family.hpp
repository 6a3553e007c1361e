#pragma once
// What makes a type a variational family over the global vector z, and the list of families the
// generic runtime code (estimation, federation, algorithms) is compiled for.
//
// A family is a tag type naming its four parameterisations (Natural, Mean, Standard, Stable; see
// *Params.hpp) with the calculus of this folder overloaded on them. Code generic in the family
// is written as templates constrained by VariationalFamily and instantiated once per entry of
// PVI_FOR_EACH_FAMILY: adding a family means writing its files here and adding it to that list;
// no file outside runtime/families/ names the families one by one.
#include <concepts>
#include <string>

#include "runtime/families/Gaussian.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi {

template <class F>
concept VariationalFamily = requires {
  typename F::Natural;
  typename F::Mean;
  typename F::Standard;
  typename F::Stable;
  typename FamilyTraits<F>::Root;
  typename FamilyTraits<F>::Curvature;
}
&&requires(const typename F::Natural& eta, const typename F::Standard& q, const typename F::Stable& s) {
  { toStandard(eta) } -> std::same_as<typename F::Standard>;
  { toNatural(q) } -> std::same_as<typename F::Natural>;
  { toMean(q) } -> std::same_as<typename F::Mean>;
  { toStable(q) } -> std::same_as<typename F::Stable>;
  { toStandard(s) } -> std::same_as<typename F::Standard>;
  { logPartition(eta) } -> std::convertible_to<double>;
  { entropy(q) } -> std::convertible_to<double>;
  { inner(eta, toMean(q)) } -> std::convertible_to<double>;
  { checkDistribution(eta).reason } -> std::convertible_to<std::string>;
  { reparamRoot(q) } -> std::same_as<typename FamilyTraits<F>::Root>;
  { payloadDoubles(eta) } -> std::convertible_to<std::size_t>;
  { F::Natural::flat(eta.dim()) } -> std::same_as<typename F::Natural>;
  { FamilyTraits<F>::isotropic(eta.dim(), 1.0) } -> std::same_as<typename F::Standard>;
};

static_assert(VariationalFamily<FullGaussian>);
static_assert(VariationalFamily<MeanFieldGaussian>);

}  // namespace pvi

// X(Family) once for every family; generic .cpp files end with
//   #define PVI_INSTANTIATE(F) template class Client<F>;
//   PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#define PVI_FOR_EACH_FAMILY(X) X(::pvi::FullGaussian) X(::pvi::MeanFieldGaussian)
