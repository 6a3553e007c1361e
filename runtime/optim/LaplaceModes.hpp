#pragma once
// The Laplace approximation at the mode with the most mass, searched from several starts. One
// L-BFGS search finds the mode of the basin it starts in; a posterior with a second, poorer basin
// (an ODE model whose parameters also fit a slower cycle: posteriordb's lotka_volterra, log
// density -173 there against -133 at the main mode) keeps every chain and every Laplace start
// there when all searches begin at the same point. Stan's Pathfinder runs several paths from
// uniform starts for this reason.
//
//   1. laplaceAtMode from `first` (Laplace.hpp). An improper outcome there is the answer: a
//      density that rises without bound has no best mode.
//   2. L-BFGS from `starts - 1` more points uniform in [-radius, radius]^d (Stan's initialisation),
//      each redrawn until the density is finite there; only searches that converge count. They are
//      independent, and run at once where `forEach` has threads.
//   3. The searches' end points, best value first, become modes: one within 0.1 Laplace sd of a
//      mode already found counts for it; otherwise laplaceAtMode from it (its Hessian), until
//      `maxModes` distinct proper modes are known (so among more modes than that, the highest
//      are compared, not necessarily the one with the most mass).
//   4. Each mode's log mass is its Laplace evidence, value - log det(-H) / 2 (up to a constant
//      shared by all): a mode wins by the probability around it, not by its height alone.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/optim/Laplace.hpp"

namespace pvi::optim {

struct MultiStartOptions {
  std::size_t starts = 16;   // searches, `first` included
  double radius = 2.0;       // the other starts: uniform in [-radius, radius]^d
  std::size_t maxModes = 4;  // Hessians for at most this many distinct modes
  std::uint64_t seed = 1;
  LbfgsOptions lbfgs;
  // Runs fn(0), ..., fn(n - 1), possibly at once on several threads (then `f` must be safe to call
  // from them); empty: in order. The searches from the other starts run through it; their start
  // points are drawn before, in order, so the result does not depend on the threads.
  std::function<void(std::size_t, const std::function<void(std::size_t)>&)> forEach;
};

struct LaplaceMode {
  LaplaceResult laplace;    // outcome Found
  double logMass = 0.0;     // value - log det(-H) / 2
  std::size_t reached = 0;  // searches that ended at this mode
};

struct LaplaceModes {
  LaplaceResult first;             // laplaceAtMode from `first`
  std::vector<LaplaceMode> modes;  // the distinct proper modes, most mass first
  std::size_t searches = 0;        // L-BFGS searches run, the first included
  std::size_t evaluations = 0;     // gradient evaluations of the searches
  bool found() const { return !modes.empty(); }
};

// When modes were found, the last call of `curvature` was at modes.front()'s point with the steps
// that gave its Hessian, so by-products the callback keeps belong to the winning mode.
LaplaceModes laplaceAtModes(const ValueAndGradient& f, const CurvatureAt& curvature, const Eigen::VectorXd& first,
                            const MultiStartOptions& options = {});

// log det(-H) / 2 subtracted from the value: the log of the Laplace approximation's mass (NaN
// when -H does not factorise).
double laplaceLogMass(const LaplaceResult& mode);

}  // namespace pvi::optim
