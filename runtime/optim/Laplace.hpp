#pragma once
// The Laplace approximation of a log density at its mode, and the checks that the mode is one of
// a proper density. Shared by the variational fit's start (federation/LaplaceStart.hpp, where the
// density is a sum over partitions) and NUTS's initialisation (fit/FitNuts.cpp).
//
//   1. L-BFGS (Lbfgs.hpp) from `start`.
//   2. The Hessian H by `curvature(x, steps)` (finite differences of exact gradients), twice: with
//      steps in the units of x, then with 1/100 of each conditional sd 1 / sqrt(-H_ii), so that
//      the steps follow the density's own scale.
//   3. Newton steps with that H polish the mode (on badly conditioned densities L-BFGS can stop
//      many sds short), and H is computed once more where they end.
//   4. The checks: a proper density's mode is curved downwards in every direction, and the density
//      falls (by ~4.5 for a Gaussian) three Laplace sds away along each eigen-direction of -H. A
//      flat direction, or a density still rising there (a likelihood approaching its supremum at
//      infinity: separable data under a flat prior), means it is improper.
#include <Eigen/Core>
#include <cstddef>
#include <functional>
#include <string>

#include "runtime/optim/Lbfgs.hpp"

namespace pvi::optim {

// The Hessian at x from central differences of exact gradients with the given steps (it may keep
// by-products, such as each term's Hessian). Throws std::domain_error where a gradient is not finite.
using CurvatureAt = std::function<Eigen::MatrixXd(const Eigen::VectorXd& x, const Eigen::VectorXd& steps)>;

enum class LaplaceOutcome {
  Found,             // x, value, H: -H positive definite, the density falls around x
  NotFiniteAtStart,  // the density or its gradient is not finite at `start`
  RunsOff,           // improper: it keeps rising as `coordinate` runs off to infinity
  Flat,              // improper: flat along the direction dominated by `coordinate` at the mode
  StillRising,       // improper: still rising three Laplace sds away, along `coordinate`
  NotCurved,         // the search hit its iteration limit where -H is not positive definite
  CurvatureFailed,   // the Hessian could not be computed, or is not finite (`detail`)
};

struct LaplaceResult {
  LaplaceOutcome outcome = LaplaceOutcome::NotFiniteAtStart;
  LbfgsResult search;
  Eigen::VectorXd x;  // the mode (after polishing)
  double value = 0.0;
  Eigen::MatrixXd hessian;       // at x
  Eigen::VectorXd hessianSteps;  // the finite-difference steps that gave it
  std::size_t coordinate = 0;    // 0-based, for RunsOff, Flat, StillRising, NotCurved
  std::string detail;
  bool improper() const {
    return outcome == LaplaceOutcome::RunsOff || outcome == LaplaceOutcome::Flat ||
           outcome == LaplaceOutcome::StillRising;
  }
};

LaplaceResult laplaceAtMode(const ValueAndGradient& f, const CurvatureAt& curvature, const Eigen::VectorXd& start,
                            const LbfgsOptions& options = {});

}  // namespace pvi::optim
