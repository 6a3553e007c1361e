#include "runtime/algorithms/sfvi/GlobalStep.hpp"

#include <random>
#include <stdexcept>
#include <utility>

#include "runtime/algorithms/pvi/LocalGradient.hpp"
#include "runtime/families/Family.hpp"

namespace pvi::algorithms {

template <class Family>
GlobalStep<Family>::GlobalStep(const Standard& q, std::vector<double> theta, bool learnTheta)
    : learnTheta_(learnTheta && !theta.empty()) {
  reset(toStable(q), std::move(theta));
}

template <class Family>
void GlobalStep<Family>::reset(const Stable& q, std::vector<double> theta) {
  st_ = q;
  theta_ = std::move(theta);
  origin_ = whiteningOrigin(st_);
  white_ = whiteOrigin(origin_);
  nz_ = static_cast<Eigen::Index>(stableSize(st_));
  const auto h = static_cast<Eigen::Index>(theta_.size());
  params_ = Eigen::VectorXd::Zero(nz_ + (learnTheta_ ? h : 0));
  if (learnTheta_) params_.tail(h) = Eigen::Map<const Eigen::VectorXd>(theta_.data(), h);
  adam_ = optim::AdamState(params_.size());
  averaged_.clear();
}

template <class Family>
estimation::ExpectedDerivatives<Family> GlobalStep<Family>::priorTerm(const estimation::LocalLikelihood& prior,
                                                                      const Eigen::MatrixXd& eps) const {
  estimation::EstimationOptions o;
  o.preferExact = false;
  o.eps = &eps;
  o.theta = theta_.empty() ? nullptr : &theta_;
  std::mt19937_64 unused(0);  // every normal is given
  return estimation::estimateDerivatives<Family>(prior, st_.m, root(), nullptr, o, unused);
}

template <class Family>
void GlobalStep<Family>::unpack() {
  unflattenStable(params_.head(nz_), white_);
  st_ = fromWhite(origin_, white_);
  if (learnTheta_)
    for (std::size_t i = 0; i < theta_.size(); ++i) theta_[i] = params_[nz_ + static_cast<Eigen::Index>(i)];
}

template <class Family>
void GlobalStep<Family>::ascend(const estimation::ExpectedDerivatives<Family>& e, double rate, bool average) {
  Eigen::VectorXd grad(params_.size());
  flattenStable(whiteGradientOf(origin_, white_, st_, root(), e, Family::Natural::flat(st_.m.size())), grad.head(nz_));
  if (learnTheta_) grad.tail(grad.size() - nz_) = e.gradTheta;
  if (!grad.allFinite()) throw std::runtime_error("non-finite gradient of the ELBO");
  optim::adamAscend(adam_, params_, grad, rate);
  if (average) averaged_.add(params_);
  unpack();
}

template <class Family>
void GlobalStep<Family>::settle() {
  if (!averaged_.empty()) {
    params_ = averaged_.mean();
    unpack();
  }
  reset(st_, theta_);
}

#define PVI_INSTANTIATE(F) template class GlobalStep<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
