#pragma once
// The maximum of a smooth function by L-BFGS (LBFGS++, Debian's liblbfgspp-dev), with the
// outcomes a fit must tell apart: a maximum found, the iteration limit, a function that rises
// without bound (|x| runs off: an improper posterior), and a start where it is not finite.
// Points where the function or its gradient is not finite are treated as infinitely bad, so the
// line search backs away from them; the best finite point seen is always returned.
#include <Eigen/Core>
#include <cstddef>
#include <functional>
#include <string>

namespace pvi::optim {

// f(x) and its gradient (written into the second argument).
using ValueAndGradient = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>;

struct LbfgsOptions {
  std::size_t maxIterations = 2000;
  std::size_t history = 6;
  double relativeTolerance = 1e-12;  // stop when f changes by less than this relative to max(1, |f|)
  double gradientTolerance = 1e-8;   // stop when |grad| is below this
  double divergence = 1e12;          // |x_i| beyond this: f rises without bound
};

enum class LbfgsStatus { Converged, IterationLimit, Diverged, NotFiniteAtStart };

struct LbfgsResult {
  LbfgsStatus status = LbfgsStatus::NotFiniteAtStart;
  Eigen::VectorXd x;         // the best finite point seen
  double value = 0.0;        // f there
  Eigen::VectorXd gradient;  // its gradient there
  std::size_t iterations = 0;
  std::size_t evaluations = 0;
  std::size_t divergentCoordinate = 0;  // with Diverged: the coordinate that ran off (0-based)
  std::string note;                     // why the search stopped, in words
};

LbfgsResult maximiseLbfgs(const ValueAndGradient& f, const Eigen::VectorXd& start, const LbfgsOptions& options = {});

}  // namespace pvi::optim
