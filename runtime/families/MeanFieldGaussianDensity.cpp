#include "runtime/families/MeanFieldGaussianDensity.hpp"

#include "runtime/families/MeanFieldGaussianValidity.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {

Eigen::VectorXd logDensityColumns(const MeanFieldStandard& q, const Eigen::MatrixXd& Z) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  if (Z.rows() != q.dim())
    throw std::invalid_argument("logDensity: points have " + std::to_string(Z.rows()) + " coordinates, q has " +
                                std::to_string(q.dim()));
  const double constant = -0.5 * (2.0 * std::numbers::pi * q.var.array()).log().sum();
  const Eigen::ArrayXd invSd = q.var.array().sqrt().inverse();
  const Eigen::MatrixXd white = ((Z.colwise() - q.m).array().colwise() * invSd).matrix();
  return (constant - 0.5 * white.colwise().squaredNorm().array()).matrix().transpose();
}

double logDensity(const MeanFieldStandard& q, const Eigen::VectorXd& z) { return logDensityColumns(q, z)(0); }

}  // namespace pvi
