#include "runtime/federation/Client.hpp"

#include <random>
#include <stdexcept>
#include <utility>

#include "runtime/families/Family.hpp"
#include "runtime/optim/FiniteDifferenceHessian.hpp"

namespace pvi::federation {

template <class Family>
Client<Family>::Client(std::size_t factorIndex, std::shared_ptr<const estimation::LocalLikelihood> likelihood,
                       std::shared_ptr<const LocalOptimiser<Family>> optimiser, Natural initialFactor,
                       std::optional<ConditionalGaussian> locals)
    : factorIndex_(factorIndex),
      likelihood_(std::move(likelihood)),
      optimiser_(std::move(optimiser)),
      factor_(std::move(initialFactor)),
      locals_(std::move(locals)) {
  if (!likelihood_ || !optimiser_) throw std::invalid_argument("Client: null likelihood or optimiser");
  if (static_cast<std::size_t>(factor_.dim()) != likelihood_->globalDim())
    throw std::invalid_argument("Client: factor and likelihood dimensions differ");
  if (Validity v = checkFactor(factor_); !v) throw std::invalid_argument("Client: initial factor: " + v.reason);
  const auto dw = static_cast<Eigen::Index>(likelihood_->localDim());
  if (dw > 0 && !locals_)
    locals_ = ConditionalGaussian::independent(Eigen::VectorXd::Zero(dw), Eigen::VectorXd::Ones(dw));
  if (dw == 0) locals_.reset();
  if (locals_ && locals_->dim() != dw)
    throw std::invalid_argument("Client: q(w | z) has " + std::to_string(locals_->dim()) + " locals, the likelihood " +
                                std::to_string(dw));
  if (locals_) {
    if (Validity v = check(*locals_); !v) throw std::invalid_argument("Client: q(w | z): " + v.reason);
    if (locals_->coupled() && locals_->coupling.cols() != static_cast<Eigen::Index>(likelihood_->globalDim()))
      throw std::invalid_argument("Client: q(w | z)'s coupling has the wrong number of columns");
  }
}

template <class Family>
void Client<Family>::setCavityMode(CavityMode mode, std::optional<Natural> fixed) {
  if (mode == CavityMode::Fixed) {
    if (!fixed) throw std::invalid_argument("Client::setCavityMode: Fixed needs a cavity");
    if (Validity v = checkDistribution(*fixed); !v)
      throw std::invalid_argument("Client::setCavityMode: the fixed cavity is not a distribution: " + v.reason);
    if (fixed->dim() != factor_.dim()) throw std::invalid_argument("Client::setCavityMode: wrong dimension");
  }
  cavityMode_ = mode;
  fixedCavity_ = mode == CavityMode::Fixed ? std::move(fixed) : std::nullopt;
}

template <class Family>
ClientUpdate<Family> Client<Family>::computeUpdate(const Natural& posterior, double damping, std::uint64_t seed) {
  ClientUpdate<Family> out;
  out.factorIndex = factorIndex_;
  if (Validity v = checkDistribution(posterior); !v) {
    out.reason = "received posterior is not a valid distribution: " + v.reason;
    return out;
  }
  LocalProblem<Family> problem;
  problem.likelihood = likelihood_.get();
  switch (cavityMode_) {
    case CavityMode::Deletion:
      problem.posterior = posterior;
      problem.factor = factor_;
      problem.cavity = posterior - factor_;
      break;
    case CavityMode::NoDeletion:  // the local problem sees q as its prior: no factor to remove
      problem.posterior = posterior;
      problem.factor = Natural::flat(posterior.dim());
      problem.cavity = posterior;
      break;
    case CavityMode::Fixed:
      problem.cavity = *fixedCavity_;
      problem.factor = factor_;
      problem.posterior = *fixedCavity_ + factor_;
      if (Validity v = checkDistribution(problem.posterior); !v) {
        out.reason = "fixed cavity times t_k is not a valid distribution: " + v.reason;
        return out;
      }
      break;
  }
  problem.locals = locals_;
  problem.seed = seed;
  if (warmStart_ && unapplied_ && cavityMode_ == CavityMode::Deletion) {
    Natural start = problem.posterior + *unapplied_;
    if (checkDistribution(start)) problem.start = std::move(start);
  }
  out.solution = optimiser_->optimise(problem);
  pendingLocals_ = std::move(out.solution.locals);
  out.solution.locals.reset();  // q(w_k) stays on the client
  if (!out.solution.ok) {
    out.reason = out.solution.reason;
    return out;
  }
  out.delta = damping * out.solution.change;
  out.ok = true;
  if (warmStart_) pendingChange_ = out.solution.change;
  return out;
}

template <class Family>
void Client<Family>::commit(const ClientUpdate<Family>& update, double scale) {
  if (update.factorIndex != factorIndex_) throw std::invalid_argument("Client::commit: update of another client");
  std::optional<ConditionalGaussian> proposal = std::move(pendingLocals_);
  pendingLocals_.reset();
  std::optional<Natural> change = std::move(pendingChange_);
  pendingChange_.reset();
  unapplied_.reset();
  if (!update.ok || scale == 0.0) return;
  // Before the factor moves: the update may not come from computeUpdate (a start's moveFactors).
  if (change && change->dim() == update.delta.dim()) unapplied_ = *change - scale * update.delta;
  factor_ += scale * update.delta;
  if (proposal) locals_ = std::move(proposal);
  ++committed_;
}

template <class Family>
PointTerm Client<Family>::pointTerm(const Eigen::VectorXd& z, const Eigen::VectorXd* hessianSteps) const {
  if (!offersPointTerm())
    throw std::logic_error("Client::pointTerm: factor " + std::to_string(factorIndex_) + " has local latents");
  const auto gradient = [this](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g.resize(x.size());
    return likelihood_->evaluate(x.data(), nullptr, g.data(), nullptr);
  };
  PointTerm t;
  t.value = gradient(z, t.gradient);
  if (hessianSteps != nullptr) t.hessian = optim::finiteDifferenceHessian(gradient, z, *hessianSteps);
  return t;
}

template <class Family>
estimation::Estimate Client<Family>::expectedLogLikelihood(const Natural& posterior, std::size_t samples,
                                                           std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  const auto q = toStandard(posterior);
  const estimation::ExpectedDerivatives<Family> e = estimation::estimateDerivatives<Family>(
      *likelihood_, q, locals_ ? &*locals_ : nullptr, estimation::EstimationOptions{samples, true, nullptr}, rng);
  estimation::Estimate out{e.value, e.valueStandardError()};
  // E_q(z)[H(q(w | z))]: the entropy at z = q's mean (ConditionalGaussian.hpp).
  if (locals_) out.value += conditionalEntropy(reanchored(*locals_, q.m));
  return out;
}

template <class Family>
estimation::Estimate Client<Family>::localFreeEnergy(const Natural& posterior, std::size_t samples,
                                                     std::uint64_t seed) const {
  estimation::Estimate e = expectedLogLikelihood(posterior, samples, seed);
  e.value -= inner(factor_, toMean(posterior));
  return e;
}

#define PVI_INSTANTIATE(F) template class Client<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
