#include "runtime/estimation/LaplaceLocals.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pvi::estimation {
namespace {

constexpr int kMaxNewtonSteps = 12;
constexpr double kDecrementTolerance = 1e-10;  // g^T (-H)^-1 g: twice the rise a Newton step expects
// A full step that expected less than this lands close enough to the mode that the curvature
// already taken serves as the proposal's (any proposal is valid; only its efficiency is at stake).
constexpr double kCloseEnough = 1e-3;

// The Hessian of f over w at w (whose gradient is g) by forward differences of the exact
// gradient, symmetrised: dim(w) gradient evaluations.
Eigen::MatrixXd hessianAt(const LocalDensity& f, const Eigen::VectorXd& w, const Eigen::VectorXd& g, int& evaluations) {
  const Eigen::Index d = w.size();
  const double root = std::sqrt(std::numeric_limits<double>::epsilon());
  Eigen::MatrixXd H(d, d);
  Eigen::VectorXd x = w, gStep(d);
  for (Eigen::Index k = 0; k < d; ++k) {
    const double h = root * std::max(1.0, std::abs(w[k]));
    x[k] = w[k] + h;
    gStep.setZero();
    const double v = f(x.data(), gStep.data());
    x[k] = w[k];
    // A rejected point's gradient is not one: the Hessian is then unknown.
    H.col(k) = std::isfinite(v) ? Eigen::VectorXd((gStep - g) / h)
                                : Eigen::VectorXd::Constant(d, std::numeric_limits<double>::quiet_NaN());
    ++evaluations;
  }
  return 0.5 * (H + H.transpose());
}

}  // namespace

LaplaceProposal laplaceProposal(const LocalDensity& f, const Eigen::VectorXd& start, const Eigen::VectorXd& fallbackSd) {
  const Eigen::Index d = start.size();
  LaplaceProposal p;
  Eigen::VectorXd w = start, g = Eigen::VectorXd::Zero(d), gNext(d), next(d);
  double value = f(w.data(), g.data());
  ++p.gradientEvaluations;
  p.startGradient = g;
  p.startCurvature = Eigen::VectorXd::Constant(d, std::numeric_limits<double>::quiet_NaN());
  Eigen::LLT<Eigen::MatrixXd> precision;  // of -H at the last point where it was positive definite
  for (int step = 0; std::isfinite(value) && g.allFinite(); ++step) {
    const Eigen::MatrixXd H = hessianAt(f, w, g, p.gradientEvaluations);
    if (step == 0) p.startCurvature = H.diagonal();
    if (!H.allFinite()) break;
    Eigen::LLT<Eigen::MatrixXd> here(-H);
    if (here.info() != Eigen::Success) break;
    precision = here;
    p.found = true;
    const Eigen::VectorXd delta = precision.solve(g);
    const double decrement = g.dot(delta);
    if (decrement < kDecrementTolerance || step == kMaxNewtonSteps) break;
    // Backtracking on the log density (Armijo); a step that gains nothing ends the search.
    double taken = 0.0;
    for (double t = 1.0; t >= 1.0 / 64.0; t /= 2.0) {
      next = w + t * delta;
      gNext.setZero();
      const double v = f(next.data(), gNext.data());
      ++p.gradientEvaluations;
      if (std::isfinite(v) && gNext.allFinite() && v >= value + 1e-4 * t * decrement) {
        w = next, g = gNext, value = v, taken = t;
        break;
      }
    }
    if (taken == 0.0 || (taken == 1.0 && decrement < kCloseEnough)) break;
  }
  p.mode = w;
  if (p.found) {
    // -H = U^T U, so root = U^-1 (upper triangular) gives root root^T = (-H)^-1.
    const Eigen::MatrixXd U = precision.matrixU();
    p.root = U.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(d, d));
    p.logDetRoot = -U.diagonal().array().log().sum();
  } else {
    p.root = fallbackSd.asDiagonal();
    p.logDetRoot = fallbackSd.array().log().sum();
  }
  return p;
}

Eigen::VectorXd laplaceDraw(const LaplaceProposal& p, const Eigen::Ref<const Eigen::VectorXd>& xi) {
  return p.mode + p.root * xi;
}

double laplaceLogDensity(const LaplaceProposal& p, const Eigen::Ref<const Eigen::VectorXd>& xi) {
  return -0.5 * xi.squaredNorm() - p.logDetRoot - 0.5 * static_cast<double>(xi.size()) * std::log(2.0 * std::numbers::pi);
}

}  // namespace pvi::estimation
