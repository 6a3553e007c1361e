#include "runtime/families/FullGaussianLogPartition.hpp"

#include "runtime/families/FullGaussianMaps.hpp"
#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {

double logPartition(const FullNatural& eta) {
  Eigen::LLT<Eigen::MatrixXd> precision;  // P = -2 eta2 = L L^T
  if (std::string why = detail::factorisePrecision(eta, precision); !why.empty()) throw std::invalid_argument(why);
  const double d = static_cast<double>(eta.dim());
  // eta2^{-1} eta1 = (-P/2)^{-1} eta1 = -2 P^{-1} eta1, by a Cholesky solve.
  const Eigen::VectorXd eta2InvEta1 = -2.0 * precision.solve(eta.eta1);
  const double value = -0.25 * eta.eta1.dot(eta2InvEta1) - 0.5 * detail::logDet(precision) +
                       0.5 * d * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(value)) throw std::invalid_argument("log-partition overflowed (precision too close to singular)");
  return value;
}

FullMean gradLogPartition(const FullNatural& eta) { return toMean(eta); }

}  // namespace pvi
