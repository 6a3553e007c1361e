#pragma once
// Free-energy identities of PVI (Ashman et al. 2022, "Partitioned Variational Inference", Property 2.2), computed
// directly from a model rather than through clients, for checks and baselines.
//
// With factors in natural parameters, t_k(z) = exp(<eta_k, T(z)>) unnormalised and the prior
// p(z) = exp(<eta_0, T(z)> - A(eta_0)) exact:
//   q(z) = p(z) prod_k t_k(z) / Z_q,   log Z_q = A(eta_q) - A(eta_0),
//   F_k(q) = E_q[log p(y_k | z)] - <eta_k, mu_q>           (Client::localFreeEnergy),
//   F(q)   = E_q[log p(z) + sum_k log p(y_k | z)] + H(q)    (globalFreeEnergy),
// and sum_k F_k(q) + log Z_q == F(q) whenever eta_q == eta_0 + sum_k eta_k. (The paper states
// this at a fixed point, but its proof, Appendix B.2(a), uses only that decomposition.)
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/estimation/Estimate.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/model/FactorModel.hpp"

namespace pvi::estimation {

// log Z_q = A(eta_q) - A(eta_0); both must be valid distributions.
double logNormaliser(const FullNatural& posterior, const FullNatural& prior);
double logNormaliser(const MeanFieldNatural& posterior, const MeanFieldNatural& prior);

// Monte Carlo estimate of the global free energy F(q) of a model without local latents, from
// `samples` draws z = m + L eps (eps from std::mt19937_64(seed)) and the closed-form entropy. The
// prior term uses priorLogDensity (every term sees the same draws); the standard error is that of
// the per-draw sum. Throws std::invalid_argument for models with local latents.
template <class Family>
Estimate globalFreeEnergy(const FactorModel& model, const std::vector<double>& theta,
                          const typename Family::Natural& posterior, std::size_t samples, std::uint64_t seed);

}  // namespace pvi::estimation
