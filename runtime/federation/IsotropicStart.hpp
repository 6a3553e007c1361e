#pragma once
// The start of a PVI fit whose partitions have local latents, where no Laplace start exists (the
// joint mode of a hierarchical model is degenerate: a scale at zero with every local at its mean):
// q(z) = N(0, sd^2 I) on the unconstrained scale, as SFVI starts, instead of the prior.
//
// Why: a client's first update starts its local optimisation at q. From a wide prior (Six Cities:
// N(0, 10^2)) 300 Adam steps, measured in q's sds, travel a fraction of the way to the tilted
// distribution, and the factors they return are far from any fixed point: q(z)'s sds stayed at 5-15
// where Stan's are 0.1-0.3, omega went to -15 (Stan: -0.79), and the next rounds diverged.
//
// Each of the P participants' factors moves by (eta_target - eta_q) / P, so that eta_q becomes
// eta_target exactly, through the server's validity guard like any update. A participant's factor
// may then be improper on its own (where the prior is narrower than sd); q and every cavity of a
// sum of the others' are not checked here beyond the server's guard on q.
#include <string>

#include "runtime/federation/Federation.hpp"

namespace pvi::federation {

struct IsotropicStartReport {
  bool applied = false;
  std::string summary;  // one line: what was done, or why not
};

template <class Family>
IsotropicStartReport startAtIsotropic(Federation<Family>& federation, double sd);

}  // namespace pvi::federation
