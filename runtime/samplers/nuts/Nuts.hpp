#pragma once
// One transition of the No-U-Turn Sampler as Stan's base_nuts does it (Betancourt 2017, "A
// Conceptual Introduction to Hamiltonian Monte Carlo", appendix A): the trajectory doubles in a
// random direction until the generalised no-U-turn criterion fails, across the whole trajectory
// and across the two halves of every subtree with one extra point each (Stan 2.26's additional
// checks); the next state is drawn from the trajectory's points with multinomial weights
// exp(-H), biased towards the newest subtree at the top level. A point whose energy exceeds the
// start's by more than maxDeltaH ends the trajectory as a divergence.
#include <cstddef>
#include <random>
#include <vector>

#include "runtime/samplers/nuts/Metric.hpp"
#include "runtime/samplers/nuts/PhasePoint.hpp"
#include "runtime/samplers/nuts/Target.hpp"

namespace pvi::samplers {

struct NutsOptions {
  std::size_t maxDepth = 10;
  double maxDeltaH = 1000.0;
};

// What Stan writes per draw (lp__ and the sampler columns).
struct TransitionStats {
  double logDensity = 0.0;  // lp__
  double acceptStat = 0.0;  // mean Metropolis acceptance over the trajectory's points
  std::size_t treeDepth = 0;
  std::size_t leapfrogs = 0;  // gradient evaluations
  bool divergent = false;
  double energy = 0.0;  // H at the chosen point
};

class Nuts {
 public:
  // `target` must outlive this object.
  Nuts(const Target& target, NutsOptions options);

  // Evaluates log p and its gradient at `point.q` (one gradient evaluation).
  void evaluate(PhasePoint& point) const;

  // Moves `point` (position with its log density and gradient filled in) by one transition.
  TransitionStats transition(PhasePoint& point, const EuclideanMetric& metric, double stepSize, std::mt19937_64& rng);

  // One leapfrog step of size eps from `z` (exposed for the step-size heuristic).
  void leapfrog(PhasePoint& z, const EuclideanMetric& metric, double eps) const;

 private:
  // Scratch of one level of the recursion, allocated once.
  struct Level {
    PhasePoint proposeFinal;
    Eigen::VectorXd pInitEnd, pSharpInitEnd, rhoInit, pFinalBeg, pSharpFinalBeg, rhoFinal, rhoSubtree, rhoExtended;
  };
  bool buildTree(std::size_t depth, PhasePoint& z, PhasePoint& propose, Eigen::VectorXd& pSharpBeg,
                 Eigen::VectorXd& pSharpEnd, Eigen::VectorXd& rho, Eigen::VectorXd& pBeg, Eigen::VectorXd& pEnd,
                 double H0, double eps, double& logSumWeight);
  void resize(Eigen::Index dim);

  const Target& target_;
  NutsOptions options_;
  // Per-transition state.
  const EuclideanMetric* metric_ = nullptr;
  std::mt19937_64* rng_ = nullptr;
  std::size_t leapfrogs_ = 0;
  double sumMetropolis_ = 0.0;
  bool divergent_ = false;
  std::vector<Level> levels_;
  PhasePoint z_, zFwd_, zBck_, zSample_, zPropose_;
  Eigen::VectorXd rho_, rhoFwd_, rhoBck_, rhoExtended_;
  Eigen::VectorXd pFwdFwd_, pSharpFwdFwd_, pFwdBck_, pSharpFwdBck_, pBckFwd_, pSharpBckFwd_, pBckBck_, pSharpBckBck_;
};

}  // namespace pvi::samplers
