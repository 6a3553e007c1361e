#pragma once
// SFVI-Avg(m) (SFVI paper, Algorithm 2; design section 6): a communication round sends q(z) and
// theta to every silo; each silo runs m = options.iterationsPerRound steps of stochastic-gradient
// VI on its own, on
//
//   log p(z, theta) + (N / N_j) (f_j + H(q(w_j | z))) + H(q(z))
//
// (N_j = FactorModel::partitionObservations(j), N their sum: the silo's data stand for all the
// data), from its own draws of z, stepping its copy of q(z) and theta and its private q(w_j | z)
// (GlobalStep.hpp, Silo.hpp, with the same white coordinates, decaying rate and averaging of the
// second half as SFVI's rounds); the server then averages theta and replaces q(z) by the
// Wasserstein-2 barycentre of the silos' q(z) (families/WassersteinBarycentre.hpp). One
// communication round per round, against SFVI's one per iteration. The ELBO of the averaged q is
// estimated as SFVI's. Options and result as SFVI's (Sfvi.hpp); options.rounds counts
// communication rounds. There is no noise control: the paper reports SFVI-Avg failing on
// Six Cities, and docs/fitting.md has what ours gives.
#include "runtime/algorithms/sfvi/Sfvi.hpp"

namespace pvi::algorithms {

template <class Family>
SfviResult<Family> runSfviAvg(const FactorModel& model, const SfviOptions<Family>& options);

}  // namespace pvi::algorithms
