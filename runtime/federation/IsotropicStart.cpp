#include "runtime/federation/IsotropicStart.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "runtime/families/Family.hpp"

namespace pvi::federation {

template <class Family>
IsotropicStartReport startAtIsotropic(Federation<Family>& federation, double sd) {
  using Natural = typename Family::Natural;
  IsotropicStartReport report;
  const std::size_t participants = federation.participants().size();
  if (participants == 0) {
    report.summary = "started from the prior: no participants";
    return report;
  }
  const Natural current = federation.server().posterior();
  const Natural target = toNatural(FamilyTraits<Family>::isotropic(current.dim(), sd * sd));
  const Natural share = (target - current) * (1.0 / static_cast<double>(participants));
  if (const std::optional<std::string> refused = federation.moveFactors(std::vector<Natural>(participants, share))) {
    report.summary = "started from the prior: the server refused the start at N(0, sd^2 I) (" + *refused + ")";
    return report;
  }
  report.applied = true;
  std::ostringstream s;
  s << "started at N(0, " << sd << "^2 I) on the unconstrained scale";
  const auto& all = federation.participants();
  if (std::any_of(all.begin(), all.end(), [](const Participant<Family>* p) { return !p->offersPointTerm(); }))
    s << " (the partitions have local latents: no Laplace start), every q(w | z) at N(0, I)";
  report.summary = s.str();
  return report;
}

#define PVI_INSTANTIATE(F) template IsotropicStartReport startAtIsotropic<F>(Federation<F>&, double);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
