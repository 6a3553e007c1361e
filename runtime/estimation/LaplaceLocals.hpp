#pragma once
// The Laplace proposal for one partition's locals at a fixed z: Newton's method from a start finds
// the mode of w -> f(z, w), and N(mode, (-H)^-1), with H the Hessian of f over w at the mode, is
// the proposal of the importance-weighted locals (Expectations.hpp) and of the posterior draws.
//
// Why: q(w | z) has a location linear in z, and in a random slope whose spread goes to 0 with its
// scale the conditional posterior of the slopes is not linear in the scale; where q(w | z) misses
// it, the importance weights collapse and q(z) is kept out of the scale's left tail. The mode and
// curvature follow p(w | z, y) at every z. H is the forward difference of the exact gradient
// over w (dim(w) gradient evaluations per Newton step), so this is meant for partitions with few
// locals (auto: at most kInnerDrawsMaxLocalDim, fit/AlgorithmChoice.cpp).
#include <Eigen/Core>
#include <functional>

namespace pvi::estimation {

struct LaplaceProposal {
  Eigen::VectorXd mode;
  Eigen::MatrixXd root;     // a square root of the covariance (-H)^-1
  double logDetRoot = 0.0;  // log |det root|
  bool found = false;       // false: no point where -H is positive definite; the fallback is used
  int gradientEvaluations = 0;
  Eigen::VectorXd startGradient;   // grad_w f at the start
  Eigen::VectorXd startCurvature;  // diag of H at the start (NaN where not finite)
};

// f(w, grad_w) -> log density at w with its gradient over w written to grad_w. When Newton does
// not reach a point with -H positive definite, the proposal is N(best point, diag(fallbackSd^2)).
using LocalDensity = std::function<double(const double* w, double* gradW)>;
LaplaceProposal laplaceProposal(const LocalDensity& f, const Eigen::VectorXd& start, const Eigen::VectorXd& fallbackSd);

// w = mode + root xi, and log N(w; mode, root root^T) at that w.
Eigen::VectorXd laplaceDraw(const LaplaceProposal& p, const Eigen::Ref<const Eigen::VectorXd>& xi);
double laplaceLogDensity(const LaplaceProposal& p, const Eigen::Ref<const Eigen::VectorXd>& xi);

}  // namespace pvi::estimation
