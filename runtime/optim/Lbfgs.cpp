#include "runtime/optim/Lbfgs.hpp"

#include <LBFGS.h>

#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>

namespace pvi::optim {
namespace {

// Thrown from inside the solver when an iterate runs off to infinity.
struct RanOff {
  std::size_t coordinate;
};

// -f for LBFGS++ (which minimises), keeping the best finite point.
class Negated {
 public:
  Negated(const ValueAndGradient& f, double divergence) : f_(f), divergence_(divergence) {}
  double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
    ++evaluations;
    Eigen::Index worst = 0;
    if (x.size() > 0 && x.cwiseAbs().maxCoeff(&worst) > divergence_) throw RanOff{static_cast<std::size_t>(worst)};
    grad.resize(x.size());
    double value = -std::numeric_limits<double>::infinity();
    try {
      value = f_(x, grad);
    } catch (const std::domain_error&) {  // a function that refuses the point: infinitely bad
      value = -std::numeric_limits<double>::infinity();
    } catch (...) {  // anything else is the caller's error, passed on after the solver unwinds
      failure = std::current_exception();
      throw;
    }
    if (!std::isfinite(value) || !grad.allFinite()) {
      grad.setZero();
      return std::numeric_limits<double>::infinity();
    }
    if (!found || value > best.value) {
      found = true;
      best.x = x;
      best.value = value;
      best.gradient = grad;
    }
    grad = -grad;
    return -value;
  }

  const ValueAndGradient& f_;
  double divergence_;
  bool found = false;
  std::size_t evaluations = 0;
  std::exception_ptr failure;
  LbfgsResult best;
};

}  // namespace

LbfgsResult maximiseLbfgs(const ValueAndGradient& f, const Eigen::VectorXd& start, const LbfgsOptions& options) {
  LBFGSpp::LBFGSParam<double> param;
  param.m = static_cast<int>(options.history);
  param.epsilon = options.gradientTolerance;
  param.epsilon_rel = 0.0;
  param.past = 1;
  param.delta = options.relativeTolerance;
  param.max_iterations = static_cast<int>(options.maxIterations);
  param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE;
  param.max_linesearch = 60;
  LBFGSpp::LBFGSSolver<double> solver(param);
  Negated negated(f, options.divergence);

  Eigen::VectorXd x = start;
  double fx = 0.0;
  LbfgsResult out;
  Eigen::VectorXd g(start.size());
  if (!std::isfinite(negated(x, g))) {  // (an error from f propagates from here as it is)
    out.status = LbfgsStatus::NotFiniteAtStart;
    out.x = start;
    out.evaluations = negated.evaluations;
    out.note = "the function or its gradient is not finite at the start";
    return out;
  }
  try {
    const int iterations = solver.minimize(negated, x, fx);
    out.iterations = static_cast<std::size_t>(iterations);
    const bool atLimit = options.maxIterations > 0 && out.iterations >= options.maxIterations;
    out.status = atLimit ? LbfgsStatus::IterationLimit : LbfgsStatus::Converged;
    out.note = atLimit ? "the iteration limit was reached" : "converged";
  } catch (const RanOff& r) {
    out.status = LbfgsStatus::Diverged;
    out.divergentCoordinate = r.coordinate;
    out.note = "the function keeps rising as coordinate " + std::to_string(r.coordinate + 1) + " runs off to infinity";
  } catch (const std::exception& e) {
    if (negated.failure) std::rethrow_exception(negated.failure);
    // The line search cannot improve any further: at a maximum to machine precision, or stuck.
    // The best point is kept; the caller judges it by its gradient and curvature.
    out.status = LbfgsStatus::Converged;
    out.note = std::string("the line search stopped: ") + e.what();
  }
  out.x = negated.best.x;
  out.value = negated.best.value;
  out.gradient = negated.best.gradient;
  out.evaluations = negated.evaluations;
  return out;
}

}  // namespace pvi::optim
