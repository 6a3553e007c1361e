#pragma once
// What a schedule talks to: one factor's holder, in process (Client.hpp) or, later, across a
// network. A participant receives eta_q, proposes Delta_k, and commits what the server applied;
// it also reports its expected log-likelihood term for the federated ELBO. Only natural
// parameters and scalars cross this interface, never data or local latents.
//
// Factor indices follow the paper: 0 is the prior (a participant only when the prior is refined
// rather than exact), 1..M are the data partitions 0..M-1 of the FactorModel.
//
// Protocol: computeUpdate(eta_q, rho, seed) returns Delta_k = rho (eta_q' - eta_q); the server
// applies scale * Delta_k (scale 0 when rejected or lost) and the participant must then be told
// commit(update, scale), so that its eta_k changes by exactly what the server added to eta_q.
// A participant has at most one update in flight; different participants may run concurrently.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/estimation/Estimate.hpp"
#include "runtime/federation/LocalOptimiser.hpp"

namespace pvi::federation {

// What a participant sends to the server: Delta_k and scalar diagnostics (solution.locals is
// always empty: an in-process client keeps its q(w_k) until commit).
template <class Family>
struct ClientUpdate {
  using Natural = typename Family::Natural;
  std::size_t factorIndex = 0;
  bool ok = false;
  std::string reason;              // why the local step failed
  Natural delta;                   // Delta_k = rho (eta_q' - eta_q); valid when ok
  LocalSolution<Family> solution;  // diagnostics: objective, steps, halvings
};

// A participant's term f_k at one point z, for the search for the posterior's mode that starts a
// fit (LaplaceStart.hpp): its value, gradient and, when asked, its Hessian by finite differences
// of the gradient. Only these global quantities cross, never data.
struct PointTerm {
  double value = 0.0;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd hessian;  // empty unless asked for
};

template <class Family>
class Participant {
 public:
  using Natural = typename Family::Natural;
  virtual ~Participant() = default;

  virtual std::size_t factorIndex() const = 0;
  // eta_k as the participant holds it (equal to the server's record when the protocol is kept).
  virtual Natural factor() const = 0;

  virtual ClientUpdate<Family> computeUpdate(const Natural& posterior, double damping, std::uint64_t seed) = 0;
  virtual void commit(const ClientUpdate<Family>& update, double scale) = 0;

  // E_q[f_k] (with locals: E_{q q(w)}[f_k] + H(q(w))), the participant's share of the ELBO.
  virtual estimation::Estimate expectedLogLikelihood(const Natural& posterior, std::size_t samples,
                                                     std::uint64_t seed) const = 0;

  // Whether f_k is a function of z alone (false with local latents: then it has no point value).
  virtual bool offersPointTerm() const = 0;
  // f_k(z), its gradient and, with hessianSteps (one per coordinate), its Hessian. Model errors
  // propagate; a point where f_k is not finite gives a non-finite value.
  virtual PointTerm pointTerm(const Eigen::VectorXd& z, const Eigen::VectorXd* hessianSteps) const = 0;
};

}  // namespace pvi::federation
