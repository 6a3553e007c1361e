#pragma once
// A PVI client (Algorithm 1, step 2): it holds its data term f_k (a LocalLikelihood), its factor
// t_k as natural parameters eta_k, and, for models with local latents, its private q(w_k), which
// never leaves it. Factor indices follow the paper: 0 is the prior (a client only when the prior
// is refined rather than exact), 1..M are the data partitions 0..M-1 of the FactorModel.
//
// One update, split in two so that a schedule can run the expensive half concurrently and decide
// about acceptance on the server:
//   computeUpdate(eta_q, rho, seed)  cavity = eta_q - eta_k; runs the local optimiser; returns
//                                    Delta_k = rho (eta_q' - eta_q) and keeps the optimised q(w_k)
//                                    as a pending proposal inside the client.
//   commit(update, scale)            after the server has applied scale * Delta_k (scale 0 when it
//                                    rejected or never received it): eta_k += scale * Delta_k, and
//                                    q(w_k) adopts the pending proposal when scale > 0.
// So eta_k changes by exactly what the server added to eta_q, which keeps
// eta_q == eta_0 + sum_k eta_k (the server's own record of eta_k matches the client's bitwise).
//
// Thread safety: a client has at most one update in flight (every schedule guarantees it):
// computeUpdate and commit of one client must not overlap, but different clients may run
// concurrently. computeUpdate is const apart from the pending q(w_k) proposal.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "runtime/pvi/Expectations.hpp"
#include "runtime/pvi/LocalOptimiser.hpp"

namespace pvi {

// What a client sends to the server: Delta_k and scalar diagnostics. The optimised q(w_k) is not
// in it (solution.locals is always empty): the client keeps it until commit.
template <class Family>
struct ClientUpdate {
  using Natural = typename Family::Natural;
  std::size_t factorIndex = 0;
  bool ok = false;
  std::string reason;                       // why the local step failed
  Natural delta;                            // Delta_k = rho (eta_q' - eta_q); valid when ok
  LocalSolution<Family> solution;           // diagnostics: objective, steps, halvings
};

// A Monte Carlo (or exact) value with its standard error.
struct Estimate {
  double value = 0.0;
  double standardError = 0.0;
};

// Which cavity the client's local free energy uses (Section 5's baselines differ only in this):
//   Deletion    q / t_k, PVI (eq. 2): the local problem starts from q;
//   NoDeletion  q itself, streaming VB (eq. 5): revisiting a client counts its data again;
//   Fixed       a given distribution, independent of q (BCM: the prior, or prior^(N_k / N)):
//               the local problem starts from fixed * t_k.
enum class CavityMode { Deletion, NoDeletion, Fixed };

template <class Family>
class Client {
 public:
  using Natural = typename Family::Natural;

  // `initialFactor` is flat for data clients; for a refined prior it is the starting factor 0.
  // `locals` is the starting q(w_k) (required when likelihood->localDim() > 0; by default
  // N(0, I) is used).
  Client(std::size_t factorIndex, std::shared_ptr<const LocalLikelihood> likelihood,
         std::shared_ptr<const LocalOptimiser<Family>> optimiser, Natural initialFactor,
         std::optional<MeanFieldStandard> locals = std::nullopt);

  std::size_t factorIndex() const { return factorIndex_; }
  const Natural& factor() const { return factor_; }
  const std::optional<MeanFieldStandard>& locals() const { return locals_; }
  const LocalLikelihood& likelihood() const { return *likelihood_; }
  std::size_t updatesCommitted() const { return committed_; }

  // Default Deletion. Fixed needs `fixed`, a valid distribution.
  void setCavityMode(CavityMode mode, std::optional<Natural> fixed = std::nullopt);
  CavityMode cavityMode() const { return cavityMode_; }

  ClientUpdate<Family> computeUpdate(const Natural& posterior, double damping, std::uint64_t seed) const;
  void commit(const ClientUpdate<Family>& update, double scale);

  // E_q[f_k] (with locals: E_{q q(w)}[f_k] + H(q(w)), the client's share of the global bound) at
  // the given posterior, from `samples` draws or in closed form when the likelihood offers it.
  Estimate expectedLogLikelihood(const Natural& posterior, std::size_t samples, std::uint64_t seed) const;
  // The local free energy of Property 2.2 at q itself: F_k(q) = E_q[f_k] - <eta_k, mu_q>.
  Estimate localFreeEnergy(const Natural& posterior, std::size_t samples, std::uint64_t seed) const;

 private:
  std::size_t factorIndex_;
  std::shared_ptr<const LocalLikelihood> likelihood_;
  std::shared_ptr<const LocalOptimiser<Family>> optimiser_;
  Natural factor_;
  std::optional<MeanFieldStandard> locals_;
  CavityMode cavityMode_ = CavityMode::Deletion;
  std::optional<Natural> fixedCavity_;
  mutable std::optional<MeanFieldStandard> pendingLocals_;  // from the last computeUpdate
  std::size_t committed_ = 0;
};

}  // namespace pvi
