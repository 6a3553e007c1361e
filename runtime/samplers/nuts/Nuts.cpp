#include "runtime/samplers/nuts/Nuts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/support/Seeds.hpp"

namespace pvi::samplers {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double logSumExp(double a, double b) {
  if (a == -kInf) return b;
  if (b == -kInf) return a;
  return std::max(a, b) + std::log1p(std::exp(-std::abs(a - b)));
}

// The generalised no-U-turn criterion (Betancourt 2013): the trajectory keeps going while both
// ends' velocities point along its summed momentum rho.
bool noUTurn(const Eigen::VectorXd& pSharpMinus, const Eigen::VectorXd& pSharpPlus, const Eigen::VectorXd& rho) {
  return pSharpPlus.dot(rho) > 0.0 && pSharpMinus.dot(rho) > 0.0;
}

}  // namespace

Nuts::Nuts(const Target& target, NutsOptions options) : target_(target), options_(options) {
  resize(static_cast<Eigen::Index>(target.dim));
}

void Nuts::resize(Eigen::Index d) {
  levels_.assign(options_.maxDepth + 1, Level{});
  for (Level& l : levels_) {
    l.proposeFinal = PhasePoint(d);
    for (Eigen::VectorXd* v : {&l.pInitEnd, &l.pSharpInitEnd, &l.rhoInit, &l.pFinalBeg, &l.pSharpFinalBeg, &l.rhoFinal,
                               &l.rhoSubtree, &l.rhoExtended})
      v->setZero(d);
  }
  for (PhasePoint* z : {&z_, &zFwd_, &zBck_, &zSample_, &zPropose_}) *z = PhasePoint(d);
  for (Eigen::VectorXd* v : {&rho_, &rhoFwd_, &rhoBck_, &rhoExtended_, &pFwdFwd_, &pSharpFwdFwd_, &pFwdBck_,
                             &pSharpFwdBck_, &pBckFwd_, &pSharpBckFwd_, &pBckBck_, &pSharpBckBck_})
    v->setZero(d);
}

void Nuts::evaluate(PhasePoint& z) const { z.logDensity = target_.logDensity(z.q.data(), z.gradient.data()); }

void Nuts::leapfrog(PhasePoint& z, const EuclideanMetric& metric, double eps) const {
  z.p.noalias() += (0.5 * eps) * z.gradient;
  metric.velocity(z.p, z.v);
  z.q.noalias() += eps * z.v;
  evaluate(z);
  z.p.noalias() += (0.5 * eps) * z.gradient;
  metric.velocity(z.p, z.v);
}

bool Nuts::buildTree(std::size_t depth, PhasePoint& z, PhasePoint& propose, Eigen::VectorXd& pSharpBeg,
                     Eigen::VectorXd& pSharpEnd, Eigen::VectorXd& rho, Eigen::VectorXd& pBeg, Eigen::VectorXd& pEnd,
                     double H0, double eps, double& logSumWeight) {
  if (depth == 0) {
    leapfrog(z, *metric_, eps);
    ++leapfrogs_;
    const double h = z.hamiltonian();
    if (h - H0 > options_.maxDeltaH) divergent_ = true;
    logSumWeight = logSumExp(logSumWeight, H0 - h);
    sumMetropolis_ += H0 - h > 0.0 ? 1.0 : std::exp(H0 - h);
    propose = z;
    pSharpBeg = z.v;
    pSharpEnd = z.v;
    rho += z.p;
    pBeg = z.p;
    pEnd = z.p;
    return !divergent_;
  }
  Level& l = levels_[depth];
  // The first half, then the second, each drawing its own proposal.
  double logSumWeightInit = -kInf;
  l.rhoInit.setZero();
  if (!buildTree(depth - 1, z, propose, pSharpBeg, l.pSharpInitEnd, l.rhoInit, pBeg, l.pInitEnd, H0, eps,
                 logSumWeightInit))
    return false;
  double logSumWeightFinal = -kInf;
  l.rhoFinal.setZero();
  if (!buildTree(depth - 1, z, l.proposeFinal, l.pSharpFinalBeg, pSharpEnd, l.rhoFinal, l.pFinalBeg, pEnd, H0, eps,
                 logSumWeightFinal))
    return false;
  // Multinomial choice between the halves' proposals.
  const double logSumWeightSubtree = logSumExp(logSumWeightInit, logSumWeightFinal);
  logSumWeight = logSumExp(logSumWeight, logSumWeightSubtree);
  if (logSumWeightFinal > logSumWeightSubtree ||
      support::uniform01(*rng_) < std::exp(logSumWeightFinal - logSumWeightSubtree))
    propose = l.proposeFinal;
  l.rhoSubtree = l.rhoInit + l.rhoFinal;
  rho += l.rhoSubtree;
  // The criterion over the subtree, and over each half extended by the other's nearest point.
  bool persist = noUTurn(pSharpBeg, pSharpEnd, l.rhoSubtree);
  l.rhoExtended = l.rhoInit + l.pFinalBeg;
  persist = persist && noUTurn(pSharpBeg, l.pSharpFinalBeg, l.rhoExtended);
  l.rhoExtended = l.rhoFinal + l.pInitEnd;
  persist = persist && noUTurn(l.pSharpInitEnd, pSharpEnd, l.rhoExtended);
  return persist;
}

TransitionStats Nuts::transition(PhasePoint& point, const EuclideanMetric& metric, double eps, std::mt19937_64& rng) {
  metric_ = &metric;
  rng_ = &rng;
  leapfrogs_ = 0;
  sumMetropolis_ = 0.0;
  divergent_ = false;

  z_ = point;
  metric.sampleMomentum(rng, z_.p);
  metric.velocity(z_.p, z_.v);
  zFwd_ = z_;
  zBck_ = z_;
  zSample_ = z_;
  zPropose_ = z_;
  pFwdFwd_ = z_.p, pSharpFwdFwd_ = z_.v, pFwdBck_ = z_.p, pSharpFwdBck_ = z_.v;
  pBckFwd_ = z_.p, pSharpBckFwd_ = z_.v, pBckBck_ = z_.p, pSharpBckBck_ = z_.v;
  rho_ = z_.p;
  double logSumWeight = 0.0;  // the initial point's weight exp(H0 - H0)
  const double H0 = z_.hamiltonian();

  std::size_t depth = 0;
  while (depth < options_.maxDepth) {
    rhoFwd_.setZero();
    rhoBck_.setZero();
    bool valid = false;
    double logSumWeightSubtree = -kInf;
    if (support::uniform01(rng) > 0.5) {  // extend forwards
      z_ = zFwd_;
      // The old trajectory becomes the backward subtree: its forward end is the old forward end.
      rhoBck_ = rho_;
      pBckFwd_ = pFwdFwd_;
      pSharpBckFwd_ = pSharpFwdFwd_;
      valid = buildTree(depth, z_, zPropose_, pSharpFwdBck_, pSharpFwdFwd_, rhoFwd_, pFwdBck_, pFwdFwd_, H0, eps,
                        logSumWeightSubtree);
      zFwd_ = z_;
    } else {  // backwards
      z_ = zBck_;
      // The old trajectory becomes the forward subtree: its backward end is the old backward end.
      rhoFwd_ = rho_;
      pFwdBck_ = pBckBck_;
      pSharpFwdBck_ = pSharpBckBck_;
      valid = buildTree(depth, z_, zPropose_, pSharpBckFwd_, pSharpBckBck_, rhoBck_, pBckFwd_, pBckBck_, H0, -eps,
                        logSumWeightSubtree);
      zBck_ = z_;
    }
    if (!valid) break;
    ++depth;
    // Biased progressive sampling: the new subtree's proposal replaces the sample with
    // probability min(1, its weight / the old trajectory's).
    if (logSumWeightSubtree > logSumWeight || support::uniform01(rng) < std::exp(logSumWeightSubtree - logSumWeight))
      zSample_ = zPropose_;
    logSumWeight = logSumExp(logSumWeight, logSumWeightSubtree);
    rho_ = rhoBck_ + rhoFwd_;
    bool persist = noUTurn(pSharpBckBck_, pSharpFwdFwd_, rho_);
    rhoExtended_ = rhoBck_ + pFwdBck_;
    persist = persist && noUTurn(pSharpBckBck_, pSharpFwdBck_, rhoExtended_);
    rhoExtended_ = rhoFwd_ + pBckFwd_;
    persist = persist && noUTurn(pSharpBckFwd_, pSharpFwdFwd_, rhoExtended_);
    if (!persist) break;
  }

  TransitionStats s;
  s.treeDepth = depth;
  s.leapfrogs = leapfrogs_;
  s.divergent = divergent_;
  s.acceptStat = leapfrogs_ > 0 ? sumMetropolis_ / static_cast<double>(leapfrogs_) : 0.0;
  point = zSample_;
  s.logDensity = point.logDensity;
  s.energy = point.hamiltonian();
  return s;
}

}  // namespace pvi::samplers
