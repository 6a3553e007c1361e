#pragma once
// A point of Hamiltonian phase space with what the sampler caches about it: the position q, its
// log density and gradient, the momentum p and the velocity v = M^{-1} p.
#include <Eigen/Core>
#include <cmath>
#include <limits>

namespace pvi::samplers {

struct PhasePoint {
  Eigen::VectorXd q, p, v, gradient;
  double logDensity = -std::numeric_limits<double>::infinity();

  PhasePoint() : PhasePoint(0) {}
  explicit PhasePoint(Eigen::Index dim)
      : q(Eigen::VectorXd::Zero(dim)),
        p(Eigen::VectorXd::Zero(dim)),
        v(Eigen::VectorXd::Zero(dim)),
        gradient(Eigen::VectorXd::Zero(dim)) {}

  // H = -log p(q) + p' M^{-1} p / 2; +inf where the density or its gradient is not finite.
  double hamiltonian() const {
    const double h = -logDensity + 0.5 * p.dot(v);
    return std::isnan(h) ? std::numeric_limits<double>::infinity() : h;
  }
};

}  // namespace pvi::samplers
