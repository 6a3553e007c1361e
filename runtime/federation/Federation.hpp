#pragma once
// A server and its clients, ready for a schedule (schedules/*.hpp), built from a FactorModel by
// makeFederation or assembled by hand (tests use custom clients).
//
// The prior (design section 6, factor 0):
//   - exact when FactorModel::gaussianPrior() is given and the family can represent it (any
//     covariance for the full family, a diagonal one for the mean-field family): eta_0 is its
//     natural parameters, fixed, and the server holds it;
//   - otherwise refined like a client with no data: a prior client (factor 0, likelihood
//     f_0 = priorLogDensity, living on the server, so its updates cost no messages) starts from
//     N(0, initialPriorScale^2 I) and is updated by the schedules together with the data clients.
//     Its factor must keep q valid at the start, which is why it does not start flat.
// A CompiledModel never declares its prior Gaussian; GaussianPriorProbe.hpp recognises one and
// WithGaussianPrior (runtime/model/) declares it, so that it is held exactly.
//
// Partition j of the model is client / factor j + 1. Models with local latents get each client a
// private mean-field q(w_k), N(0, I) unless given.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/federation/Client.hpp"
#include "runtime/federation/Server.hpp"
#include "runtime/model/FactorModel.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi::federation {

template <class Family>
class Federation {
 public:
  using Natural = typename Family::Natural;

  // participants[k - 1] must hold factor k; prior (may be null) factor 0.
  Federation(Server<Family> server, std::vector<std::unique_ptr<Participant<Family>>> participants,
             std::unique_ptr<Participant<Family>> prior = nullptr);
  // The same from in-process clients.
  Federation(Server<Family> server, std::vector<std::unique_ptr<Client<Family>>> clients,
             std::unique_ptr<Client<Family>> priorClient = nullptr);

  Server<Family>& server() { return server_; }
  const Server<Family>& server() const { return server_; }
  std::size_t numClients() const { return clients_.size(); }  // M (data participants)
  // Factor 1..M, or 0 for a refined prior.
  Participant<Family>& participant(std::size_t factorIndex);
  const Participant<Family>& participant(std::size_t factorIndex) const;
  // The same when it is an in-process Client (its locals, cavity mode); throws otherwise.
  Client<Family>& client(std::size_t factorIndex);
  const Client<Family>& client(std::size_t factorIndex) const;
  bool priorRefined() const { return priorClient_ != nullptr; }

  // Everyone a schedule updates, in factor order (the prior first when refined).
  std::vector<Participant<Family>*> participants();

  // Moves participant k's factor by deltas[k] (participants() order) as one batch through the
  // server's validity guard and commits it on the participants' side: how a fit's start
  // (LaplaceStart.hpp, IsotropicStart.hpp) sets the factors. The server's reason when it refused
  // the batch, else empty.
  std::optional<std::string> moveFactors(const std::vector<Natural>& deltas);

  // The global free energy (ELBO) at the current posterior, the federated way: each data client
  // reports E_q[f_k] (one scalar message each way, counted as evaluation messages), the server
  // adds its prior term and the entropy:
  //   F(q) = sum_k E_q[f_k] + E_q[log p(z)] + H(q),
  //   E_q[log p(z)] = <eta_0, mu_q> - A(eta_0) for an exact prior (else a Monte Carlo estimate).
  // Client k draws from deriveSeed(seed, k). Exact where the likelihoods offer closed forms.
  estimation::Estimate freeEnergy(std::size_t samples, std::uint64_t seed);

  // Threads for the work the server runs at once in one process: the free energy's participants
  // (added in factor order) and the Laplace start's searches (each from its own stream), so the
  // numbers do not depend on the count. 0 or 1: none. Not for work submitted from inside a task
  // on this pool (it would wait on tasks queued behind itself).
  void setThreads(std::size_t threads) {
    pool_ = threads > 1 ? std::make_shared<support::ThreadPool>(threads) : nullptr;
  }
  support::ThreadPool* pool() const { return pool_.get(); }

  // The invariant eta_q == eta_0 + sum_k eta_k also on the clients' side: the largest difference
  // between a client's eta_k and the server's record (0 when they agree bitwise).
  double clientRecordMismatch() const;

 private:
  Server<Family> server_;
  std::vector<std::unique_ptr<Participant<Family>>> clients_;
  std::unique_ptr<Participant<Family>> priorClient_;
  std::shared_ptr<support::ThreadPool> pool_;
};

template <class Family>
struct FederationOptions {
  std::vector<double> theta;                                     // fixed hyperparameters (model.hyperDim() entries)
  const estimation::ExactExpectationsProvider* exact = nullptr;  // closed-form expectations, if the model has them
  ServerOptions server;
  bool refinePrior = false;        // refine factor 0 even when the prior is exactly Gaussian
  double initialPriorScale = 1.0;  // the refined prior's starting N(0, scale^2 I)
  std::shared_ptr<const LocalOptimiser<Family>> priorOptimiser;  // default: the clients' optimiser
  std::vector<ConditionalGaussian> initialLocals;                // per partition, optional
  // The shape of every partition's q(w_j | z) (coupled to z, correlated locals); the default is
  // plain PVI's independent q(w_j). Applied to initialLocals too.
  ConditionalShape localShape{false, false, false};
};

// `model` (and options.exact) must outlive the federation.
template <class Family>
Federation<Family> makeFederation(const FactorModel& model, std::shared_ptr<const LocalOptimiser<Family>> optimiser,
                                  const FederationOptions<Family>& options = {});

// The exact prior factor eta_0 of `model` in the family, if FactorModel::gaussianPrior() gives
// one the family represents exactly.
template <class Family>
std::optional<typename Family::Natural> exactPriorFactor(const FactorModel& model);

}  // namespace pvi::federation
