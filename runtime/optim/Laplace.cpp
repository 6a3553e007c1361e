#include "runtime/optim/Laplace.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "runtime/optim/FiniteDifferenceHessian.hpp"

namespace pvi::optim {
namespace {

// f where it is finite, -infinity where it is not or refuses the point.
double valueAt(const ValueAndGradient& f, const Eigen::VectorXd& x, Eigen::VectorXd& g) {
  try {
    const double v = f(x, g);
    return std::isfinite(v) && g.allFinite() ? v : -std::numeric_limits<double>::infinity();
  } catch (const std::domain_error&) {
    return -std::numeric_limits<double>::infinity();
  }
}

// Newton steps x <- x - H^-1 grad(x) with a fixed curvature H (negative definite), halved until
// the density does not fall, until the Newton decrement g' (-H)^-1 g is below 1e-12 or 20 steps.
// Returns whether x moved.
bool newtonPolish(const ValueAndGradient& f, const Eigen::MatrixXd& H, Eigen::VectorXd& x, double& value) {
  const Eigen::LLT<Eigen::MatrixXd> precision(-H);
  if (precision.info() != Eigen::Success) return false;
  Eigen::VectorXd g;
  if (!std::isfinite(valueAt(f, x, g))) return false;
  bool moved = false;
  for (int iteration = 0; iteration < 20; ++iteration) {
    const Eigen::VectorXd step = precision.solve(g);
    if (!(g.dot(step) > 1e-12)) break;
    bool accepted = false;
    for (double t = 1.0; t > 1e-4 && !accepted; t *= 0.5) {
      const Eigen::VectorXd candidate = x + t * step;
      Eigen::VectorXd gc;
      const double vc = valueAt(f, candidate, gc);
      if (std::isfinite(vc) && vc >= value) {
        x = candidate;
        value = vc;
        g = gc;
        accepted = moved = true;
      }
    }
    if (!accepted) break;
  }
  return moved;
}

std::size_t dominantCoordinate(const Eigen::VectorXd& direction) {
  Eigen::Index i = 0;
  direction.cwiseAbs().maxCoeff(&i);
  return static_cast<std::size_t>(i);
}

}  // namespace

LaplaceResult laplaceAtMode(const ValueAndGradient& f, const CurvatureAt& curvature, const Eigen::VectorXd& start,
                            const LbfgsOptions& options) {
  LaplaceResult r;
  r.search = maximiseLbfgs(f, start, options);
  r.x = r.search.x;
  r.value = r.search.value;
  if (r.search.status == LbfgsStatus::NotFiniteAtStart) {
    r.outcome = LaplaceOutcome::NotFiniteAtStart;
    return r;
  }
  if (r.search.status == LbfgsStatus::Diverged) {
    r.outcome = LaplaceOutcome::RunsOff;
    r.coordinate = r.search.divergentCoordinate;
    return r;
  }

  const Eigen::Index d = r.x.size();
  Eigen::VectorXd steps = defaultHessianSteps(r.x);
  const auto curvatureAt = [&](const Eigen::VectorXd& x) {
    r.hessianSteps = steps;
    r.hessian = curvature(x, steps);
    for (Eigen::Index i = 0; i < d; ++i)  // the next steps: 1/100 of each conditional sd
      if (r.hessian(i, i) < 0.0) steps[i] = 0.01 / std::sqrt(-r.hessian(i, i));
  };
  try {
    curvatureAt(r.x);  // in the units of x
    curvatureAt(r.x);  // on the density's scale
    if (r.hessian.allFinite() && newtonPolish(f, r.hessian, r.x, r.value)) curvatureAt(r.x);
  } catch (const std::domain_error& e) {
    r.outcome = LaplaceOutcome::CurvatureFailed;
    r.detail = e.what();
    return r;
  }
  if (!r.hessian.allFinite()) {
    r.outcome = LaplaceOutcome::CurvatureFailed;
    r.detail = "the curvature at the mode is not finite";
    return r;
  }

  // The curvature in units of each coordinate's own scale, C = D^-1/2 (-H) D^-1/2 with
  // D = diag(-H), so that the checks do not depend on the units (scales 1e4 and 1e-4 make the
  // eigenvalues of -H itself differ by 1e16).
  const Eigen::VectorXd diagonal = -r.hessian.diagonal();
  const bool searched = r.search.status == LbfgsStatus::Converged;
  for (Eigen::Index i = 0; i < d; ++i)
    if (!(diagonal[i] > 0.0)) {
      r.outcome = searched ? LaplaceOutcome::Flat : LaplaceOutcome::NotCurved;
      r.coordinate = static_cast<std::size_t>(i);
      return r;
    }
  const Eigen::VectorXd scale = diagonal.cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd C = scale.asDiagonal() * (-r.hessian) * scale.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(C);
  const Eigen::VectorXd& values = eigen.eigenvalues();  // ascending; their mean is 1
  if (!(values[0] > 1e-12)) {
    r.outcome = searched ? LaplaceOutcome::Flat : LaplaceOutcome::NotCurved;
    r.coordinate = dominantCoordinate(eigen.eigenvectors().col(0));
    return r;
  }
  for (Eigen::Index k = 0; searched && k < d; ++k)
    for (const double side : {-3.0, 3.0}) {
      Eigen::VectorXd ignored;
      const Eigen::VectorXd step = scale.cwiseProduct(eigen.eigenvectors().col(k)) * (side / std::sqrt(values[k]));
      if (valueAt(f, r.x + step, ignored) > r.value) {
        r.outcome = LaplaceOutcome::StillRising;
        r.coordinate = dominantCoordinate(eigen.eigenvectors().col(k));
        return r;
      }
    }
  r.outcome = LaplaceOutcome::Found;
  return r;
}

}  // namespace pvi::optim
