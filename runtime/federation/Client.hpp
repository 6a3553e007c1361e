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
// Thread safety: as every Participant (Participant.hpp), at most one update in flight.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "runtime/estimation/Estimate.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/federation/LocalOptimiser.hpp"
#include "runtime/federation/Participant.hpp"

namespace pvi::federation {

// Which cavity the client's local free energy uses (Section 5's baselines differ only in this):
//   Deletion    q / t_k, PVI (eq. 2): the local problem starts from q;
//   NoDeletion  q itself, streaming VB (eq. 5): revisiting a client counts its data again;
//   Fixed       a given distribution, independent of q (BCM: the prior, or prior^(N_k / N)):
//               the local problem starts from fixed * t_k.
enum class CavityMode { Deletion, NoDeletion, Fixed };

template <class Family>
class Client final : public Participant<Family> {
 public:
  using Natural = typename Family::Natural;

  // `initialFactor` is flat for data clients; for a refined prior it is the starting factor 0.
  // `locals` is the starting q(w_k | z) when likelihood->localDim() > 0; by default N(0, I),
  // independent of z. Its shape (coupled to z, correlated) is what the client optimises.
  Client(std::size_t factorIndex, std::shared_ptr<const estimation::LocalLikelihood> likelihood,
         std::shared_ptr<const LocalOptimiser<Family>> optimiser, Natural initialFactor,
         std::optional<ConditionalGaussian> locals = std::nullopt);

  std::size_t factorIndex() const override { return factorIndex_; }
  Natural factor() const override { return factor_; }
  const std::optional<ConditionalGaussian>& locals() const { return locals_; }
  const estimation::LocalLikelihood& likelihood() const { return *likelihood_; }
  std::size_t updatesCommitted() const { return committed_; }

  // Warm starts (off by default): each update's q' starts where the client's last solution would
  // put it now, q + (1 - applied) Delta' with Delta' the last solution's undamped change and
  // `applied` the fraction of it the server took (rho times its scale). With damping rho the
  // server moves q only rho of the way to a client's optimum, and the client's next optimum, for
  // a cavity that changed little, lies the rest of the way on (in natural parameters:
  // q_new + (1 - rho) Delta'). A start that is not a valid distribution is not used.
  void setWarmStart(bool on) {
    warmStart_ = on;
    pendingChange_.reset();
    unapplied_.reset();
  }

  // Default Deletion. Fixed needs `fixed`, a valid distribution.
  void setCavityMode(CavityMode mode, std::optional<Natural> fixed = std::nullopt);
  CavityMode cavityMode() const { return cavityMode_; }

  ClientUpdate<Family> computeUpdate(const Natural& posterior, double damping, std::uint64_t seed) override;
  void commit(const ClientUpdate<Family>& update, double scale) override;

  // E_q[f_k] (with locals: E_{q q(w)}[f_k] + H(q(w)), the client's share of the global bound) at
  // the given posterior, from `samples` draws or in closed form when the likelihood offers it.
  estimation::Estimate expectedLogLikelihood(const Natural& posterior, std::size_t samples,
                                             std::uint64_t seed) const override;
  bool offersPointTerm() const override { return likelihood_->localDim() == 0; }
  PointTerm pointTerm(const Eigen::VectorXd& z, const Eigen::VectorXd* hessianSteps) const override;

  // The local free energy of Property 2.2 at q itself: F_k(q) = E_q[f_k] - <eta_k, mu_q>.
  estimation::Estimate localFreeEnergy(const Natural& posterior, std::size_t samples, std::uint64_t seed) const;

 private:
  std::size_t factorIndex_;
  std::shared_ptr<const estimation::LocalLikelihood> likelihood_;
  std::shared_ptr<const LocalOptimiser<Family>> optimiser_;
  Natural factor_;
  std::optional<ConditionalGaussian> locals_;
  CavityMode cavityMode_ = CavityMode::Deletion;
  std::optional<Natural> fixedCavity_;
  std::optional<ConditionalGaussian> pendingLocals_;  // from the last computeUpdate
  std::size_t committed_ = 0;
  bool warmStart_ = false;
  std::optional<Natural> pendingChange_;  // the last computeUpdate's undamped change (warm starts)
  std::optional<Natural> unapplied_;      // the part of the last solution's change not yet applied
};

}  // namespace pvi::federation
