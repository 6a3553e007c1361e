#include "runtime/federation/IsotropicStart.hpp"

#include <sstream>
#include <vector>

#include "runtime/families/Family.hpp"

namespace pvi::federation {

template <class Family>
IsotropicStartReport startAtIsotropic(Federation<Family>& federation, double sd) {
  using Natural = typename Family::Natural;
  IsotropicStartReport report;
  const Natural current = federation.server().posterior();
  const auto d = static_cast<Eigen::Index>(toStandard(current).m.size());
  const Natural target = toNatural(FamilyTraits<Family>::isotropic(d, sd * sd));
  const std::vector<Participant<Family>*> participants = federation.participants();
  if (participants.empty()) {
    report.summary = "started from the prior: no participants";
    return report;
  }
  const Natural share = (target - current) * (1.0 / static_cast<double>(participants.size()));
  std::vector<ClientUpdate<Family>> updates;
  for (Participant<Family>* p : participants) {
    ClientUpdate<Family> u;
    u.factorIndex = p->factorIndex();
    u.ok = true;
    u.delta = share;
    updates.push_back(std::move(u));
  }
  std::vector<const ClientUpdate<Family>*> received;
  for (const ClientUpdate<Family>& u : updates) received.push_back(&u);
  const std::vector<ApplyOutcome> outcomes = federation.server().apply(received);
  if (outcomes.empty() || !outcomes.front().applied) {
    report.summary = "started from the prior: the server refused the start at N(0, sd^2 I) (" +
                     (outcomes.empty() ? std::string("no outcome") : outcomes.front().reason) + ")";
    return report;
  }
  for (std::size_t i = 0; i < updates.size(); ++i)
    federation.participant(updates[i].factorIndex).commit(updates[i], outcomes[i].scale);
  report.applied = true;
  std::ostringstream s;
  s << "started at N(0, " << sd
    << "^2 I) on the unconstrained scale (the partitions have local latents: no Laplace "
       "start), every q(w | z) at N(0, I)";
  report.summary = s.str();
  return report;
}

#define PVI_INSTANTIATE(F) template IsotropicStartReport startAtIsotropic<F>(Federation<F>&, double);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
