#include "runtime/families/FullGaussianDensity.hpp"

#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {

Eigen::VectorXd logDensityColumns(const FullStandard& q, const Eigen::MatrixXd& Z) {
  Eigen::LLT<Eigen::MatrixXd> covariance;
  if (std::string why = detail::factoriseCovariance(q.m, q.S, "the covariance S", covariance); !why.empty())
    throw std::invalid_argument(why);
  if (Z.rows() != q.dim())
    throw std::invalid_argument("logDensity: points have " + std::to_string(Z.rows()) + " coordinates, q has " +
                                std::to_string(q.dim()));
  const double constant =
      -0.5 * static_cast<double>(q.dim()) * std::log(2.0 * std::numbers::pi) - 0.5 * detail::logDet(covariance);
  const Eigen::MatrixXd white = covariance.matrixL().solve(Z.colwise() - q.m);  // L^{-1} (z - m)
  return (constant - 0.5 * white.colwise().squaredNorm().array()).matrix().transpose();
}

double logDensity(const FullStandard& q, const Eigen::VectorXd& z) { return logDensityColumns(q, z)(0); }

}  // namespace pvi
