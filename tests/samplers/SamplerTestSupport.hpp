#pragma once
// Closed-form targets and Monte Carlo error checks for the sampler tests.
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cmath>
#include <random>
#include <vector>

#include "runtime/diagnostics/Diagnostics.hpp"
#include "runtime/samplers/nuts/Sampler.hpp"

namespace pvi::samplers::testing {

// N(mu, Sigma) with its log density and gradient.
struct GaussianTarget {
  Eigen::VectorXd mu;
  Eigen::MatrixXd sigma, precision;
  Target target;

  GaussianTarget(Eigen::VectorXd m, Eigen::MatrixXd s) : mu(std::move(m)), sigma(std::move(s)) {
    precision = sigma.llt().solve(Eigen::MatrixXd::Identity(sigma.rows(), sigma.cols()));
    target.dim = static_cast<std::size_t>(mu.size());
    target.logDensity = [this](const double* x, double* g) {
      const Eigen::Map<const Eigen::VectorXd> xv(x, mu.size());
      const Eigen::VectorXd r = precision * (xv - mu);
      Eigen::Map<Eigen::VectorXd>(g, mu.size()) = -r;
      return -0.5 * (xv - mu).dot(r);
    };
  }
  GaussianTarget(const GaussianTarget&) = delete;  // the target's lambda captures this
};

// A random correlation structure with scales spread over two orders of magnitude (fixed seed).
inline Eigen::MatrixXd randomCovariance(Eigen::Index d, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd a(d, d);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
  Eigen::MatrixXd c = a * a.transpose() / static_cast<double>(d) + 0.1 * Eigen::MatrixXd::Identity(d, d);
  Eigen::VectorXd scale(d);
  for (Eigen::Index i = 0; i < d; ++i) scale[i] = std::exp(std::log(10.0) * (static_cast<double>(i) / (d - 1) - 0.5));
  return scale.asDiagonal() * c * scale.asDiagonal();
}

// Column k of all chains' draws as iterations x chains.
inline Eigen::MatrixXd column(const std::vector<ChainResult>& chains, Eigen::Index k) {
  Eigen::MatrixXd m(chains.front().draws.rows(), static_cast<Eigen::Index>(chains.size()));
  for (std::size_t c = 0; c < chains.size(); ++c) m.col(static_cast<Eigen::Index>(c)) = chains[c].draws.col(k);
  return m;
}

// How many Monte Carlo standard errors (the ESS-based MCSE of the draws' mean) the mean of
// `values` lies from `expected`.
inline double mcseDistance(const Eigen::MatrixXd& values, double expected) {
  const diagnostics::Diagnostics d = diagnostics::diagnose(values);
  return std::abs(values.mean() - expected) / d.mcseMean;
}

}  // namespace pvi::samplers::testing
