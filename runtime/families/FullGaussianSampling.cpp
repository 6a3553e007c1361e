#include "runtime/families/FullGaussianSampling.hpp"

#include "runtime/families/FullGaussianStable.hpp"
#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/StandardNormal.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <stdexcept>

namespace pvi {
namespace {

Eigen::MatrixXd transform(const Eigen::VectorXd& m, const Eigen::MatrixXd& L, const Eigen::MatrixXd& eps) {
  if (eps.rows() != m.size())
    throw std::invalid_argument("sample: eps has " + std::to_string(eps.rows()) + " coordinates, q has " +
                                std::to_string(m.size()));
  return (L.triangularView<Eigen::Lower>() * eps).colwise() + m;
}

Eigen::MatrixXd lowerFactor(const FullStandard& q) {
  Eigen::LLT<Eigen::MatrixXd> covariance;
  if (std::string why = detail::factoriseCovariance(q.m, q.S, "the covariance S", covariance); !why.empty())
    throw std::invalid_argument(why);
  return covariance.matrixL();
}

}  // namespace

Eigen::MatrixXd sampleColumns(const FullStandard& q, const Eigen::MatrixXd& eps) {
  return transform(q.m, lowerFactor(q), eps);
}

Eigen::VectorXd sample(const FullStandard& q, const Eigen::VectorXd& eps) { return sampleColumns(q, eps).col(0); }

Eigen::MatrixXd sampleColumns(const FullStable& q, const Eigen::MatrixXd& eps) {
  return transform(q.m, choleskyFactor(q), eps);
}

Eigen::VectorXd sample(const FullStable& q, const Eigen::VectorXd& eps) { return sampleColumns(q, eps).col(0); }

Eigen::MatrixXd sample(const FullStandard& q, std::size_t n, std::mt19937_64& rng) {
  const Eigen::MatrixXd L = lowerFactor(q);
  return transform(q.m, L, standardNormals(q.dim(), static_cast<Eigen::Index>(n), rng));
}

}  // namespace pvi
