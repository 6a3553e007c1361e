#include "runtime/algorithms/sfvi/GlobalStep.hpp"

#include <random>
#include <stdexcept>
#include <utility>

#include "runtime/algorithms/pvi/LocalGradient.hpp"
#include "runtime/families/Family.hpp"

namespace pvi::algorithms {

template <class Family>
GlobalStep<Family>::GlobalStep(const Standard& q, std::vector<double> theta, bool learnTheta, bool shaped)
    : learnTheta_(learnTheta && !theta.empty()) {
  reset(toStable(q), std::move(theta), shaped ? GlobalShape::identity(q.m.size()) : GlobalShape{});
}

template <class Family>
void GlobalStep<Family>::reset(const Stable& q, std::vector<double> theta) {
  const GlobalShape shape = shape_;
  reset(q, std::move(theta), shape);
}

template <class Family>
void GlobalStep<Family>::reset(const Stable& q, std::vector<double> theta, const GlobalShape& shape) {
  st_ = q;
  theta_ = std::move(theta);
  shape_ = shape;
  origin_ = whiteningOrigin(st_);
  white_ = whiteOrigin(origin_);
  nz_ = static_cast<Eigen::Index>(stableSize(st_));
  const auto h = static_cast<Eigen::Index>(learnTheta_ ? theta_.size() : 0);
  const Eigen::Index d = shape_.skew.size();
  params_ = Eigen::VectorXd::Zero(nz_ + h + 2 * d);
  if (learnTheta_) params_.segment(nz_, h) = Eigen::Map<const Eigen::VectorXd>(theta_.data(), h);
  if (d > 0) {
    params_.segment(nz_ + h, d) = shape_.skew;
    params_.tail(d) = shape_.tail.array().log().matrix();
  }
  adam_ = optim::AdamState(params_.size());
  averaged_.clear();
}

template <class Family>
double GlobalStep<Family>::entropy() const {
  return pvi::entropy(st_) + shapeEntropy(shape_);
}

template <class Family>
Eigen::MatrixXd GlobalStep<Family>::sendDraws(const Eigen::MatrixXd& eps) {
  if (!shaped()) return eps;
  sent_ = shapedDraws(shape_, eps);
  return sent_.u;
}

template <class Family>
estimation::ExpectedDerivatives<Family> GlobalStep<Family>::priorTerm(const estimation::LocalLikelihood& prior,
                                                                      const Eigen::MatrixXd& eps) const {
  estimation::EstimationOptions o;
  o.preferExact = false;
  o.eps = &eps;
  o.theta = theta_.empty() ? nullptr : &theta_;
  o.keepDrawCross = shaped();
  std::mt19937_64 unused(0);  // every normal is given
  return estimation::estimateDerivatives<Family>(prior, st_.m, root(), nullptr, o, unused);
}

template <class Family>
void GlobalStep<Family>::unpack() {
  unflattenStable(params_.head(nz_), white_);
  st_ = fromWhite(origin_, white_);
  if (learnTheta_)
    for (std::size_t i = 0; i < theta_.size(); ++i) theta_[i] = params_[nz_ + static_cast<Eigen::Index>(i)];
  const Eigen::Index d = shape_.skew.size();
  if (d > 0) {
    shape_.skew = params_.segment(params_.size() - 2 * d, d);
    shape_.tail = params_.tail(d).array().exp().matrix();
  }
}

template <class Family>
void GlobalStep<Family>::ascend(estimation::ExpectedDerivatives<Family> e, double rate, bool average) {
  Eigen::VectorXd grad(params_.size());
  const Eigen::Index d = shape_.skew.size();
  if (d > 0) {
    // The entropy's sticking-the-landing terms with h'(u) in place of eps (families/GlobalShape.hpp),
    // and the shape's gradient E[((L^T t)_k + h'(u_k)) dT_k/d(skew_k, log tail_k)] once it is free.
    const auto n = static_cast<double>(sent_.u.cols());
    e.epsMean = sent_.score.rowwise().mean();
    if constexpr (FamilyTraits<Family>::denseCurvature)
      e.epsOuter = sent_.score * sent_.u.transpose() / n;
    else
      e.epsOuter = (sent_.score.array() * sent_.u.array()).rowwise().mean().matrix();
    if (shapeFree_) {
      Eigen::MatrixXd lt;  // L^T t + h'(u) per draw
      if constexpr (FamilyTraits<Family>::denseCurvature)
        lt = root().transpose() * e.drawCross;
      else
        lt = root().asDiagonal() * e.drawCross;
      lt += sent_.score;
      grad.segment(grad.size() - 2 * d, d) = (lt.array() * sent_.overSkew.array()).rowwise().mean().matrix();
      grad.tail(d) = (lt.array() * sent_.overLogTail.array()).rowwise().mean().matrix();
    } else {
      grad.tail(2 * d).setZero();  // Adam moves no coordinate whose gradients have all been 0
    }
  }
  flattenStable(whiteGradientOf(origin_, white_, st_, root(), e, Family::Natural::flat(st_.m.size())), grad.head(nz_));
  if (learnTheta_) grad.segment(nz_, static_cast<Eigen::Index>(theta_.size())) = e.gradTheta;
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
