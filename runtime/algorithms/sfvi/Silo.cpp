#include "runtime/algorithms/sfvi/Silo.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>

#include "runtime/families/Family.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::algorithms {

template <class Family>
SfviSilo<Family>::SfviSilo(std::shared_ptr<const estimation::LocalLikelihood> likelihood, ConditionalGaussian initial,
                           optim::AdamSettings adam, std::size_t innerDraws, bool laplaceLocals)
    : likelihood_(std::move(likelihood)),
      settings_(adam),
      innerDraws_(std::max<std::size_t>(innerDraws, 1)),
      laplaceLocals_(laplaceLocals) {
  if (!likelihood_) throw std::invalid_argument("SfviSilo: null likelihood");
  const auto dw = static_cast<Eigen::Index>(likelihood_->localDim());
  if (dw > 0) {
    if (initial.dim() != dw) throw std::invalid_argument("SfviSilo: q(w | z) has the wrong dimension");
    if (Validity v = check(initial); !v) throw std::invalid_argument("SfviSilo: q(w | z): " + v.reason);
    origin_.q0 = std::move(initial);
  }
}

template <class Family>
void SfviSilo<Family>::rebase(const Eigen::VectorXd& m, const Root& root, bool averaged) {
  if (localDim() == 0) return;
  if (averaged && !averaged_.empty()) white_ = averaged_.mean();
  const ConditionalGaussian current = white_.size() > 0 ? fromWhite(origin_, white_, m) : reanchored(origin_.q0, m);
  origin_ = conditionalOrigin(current, root);
  white_ = Eigen::VectorXd::Zero(origin_.size);
  adam_ = optim::AdamState(origin_.size);
  averaging_ = false;
  averaged_.clear();
}

template <class Family>
void SfviSilo<Family>::reset(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Root& root) {
  if (localDim() == 0) return;
  origin_.q0 = q;
  white_.resize(0);
  rebase(m, root, false);
}

template <class Family>
ConditionalGaussian SfviSilo<Family>::conditional(const Eigen::VectorXd& m) const {
  if (white_.size() == 0) return reanchored(origin_.q0, m);
  return fromWhite(origin_, white_, m);
}

template <class Family>
SiloReply<Family> SfviSilo<Family>::step(const Eigen::VectorXd& m, const Root& root, const std::vector<double>& theta,
                                         const Eigen::MatrixXd& eps, const Eigen::MatrixXd& xi, double learningRate,
                                         bool drawCross) {
  const bool hasLocals = localDim() > 0;
  if (hasLocals && white_.size() == 0) rebase(m, root, false);
  const ConditionalGaussian qw = hasLocals ? conditional(m) : ConditionalGaussian{};
  estimation::EstimationOptions o;
  o.preferExact = false;
  o.eps = &eps;
  o.xi = hasLocals ? &xi : nullptr;
  o.keepDrawCross = drawCross;
  o.innerDraws = innerDraws_;
  o.laplaceLocals = laplaceLocals_;
  o.theta = likelihood_->hyperDim() > 0 && !theta.empty() ? &theta : nullptr;
  std::mt19937_64 unused(0);  // every normal is given
  const estimation::ExpectedDerivatives<Family> e =
      estimation::estimateDerivatives<Family>(*likelihood_, m, root, hasLocals ? &qw : nullptr, o, unused);
  SiloReply<Family> reply;
  reply.gradZ = e.gradZ;
  reply.crossZ = e.crossZ;
  reply.gradTheta = e.gradTheta;
  reply.drawCross = e.drawCross;
  if (learningRate <= 0.0) {  // an evaluation: the draws' values (H(q(w | z)) costs quadrature with a shape)
    reply.values = e.drawValues;
    // the weighted term counts -log q(w | z) (or the Laplace proposal's log density) itself
    const bool withEntropy = hasLocals && innerDraws_ == 1 && !laplaceLocals_;
    if (withEntropy) reply.values.array() += conditionalEntropy(qw);
    // H(q(w | z)) at each z: the anchor's plus sum G (z - m), whose mean is 0 only where E[z] = m
    // (not so for a skewed q(z): families/GlobalShape.hpp).
    if (withEntropy && qw.scaled()) {
      const Eigen::MatrixXd centred = reparamDraws(Eigen::VectorXd::Zero(m.size()), root, eps);
      reply.values += (qw.scaleCoupling * centred).colwise().sum().transpose();
    }
  }
  if (hasLocals && learningRate > 0.0) {
    Eigen::VectorXd grad(origin_.size);
    whiteGradient(origin_, qw, e.local, grad);
    if (!grad.allFinite()) throw std::runtime_error("non-finite gradient over q(w | z)");
    optim::adamAscend(adam_, white_, grad, learningRate, settings_);
    if (averaging_) averaged_.add(white_);
  }
  return reply;
}

#define PVI_INSTANTIATE(F) template class SfviSilo<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
