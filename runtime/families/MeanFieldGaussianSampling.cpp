#include "runtime/families/MeanFieldGaussianSampling.hpp"

#include "runtime/families/MeanFieldGaussianStable.hpp"
#include "runtime/families/MeanFieldGaussianValidity.hpp"
#include "runtime/families/StandardNormal.hpp"

#include <stdexcept>

namespace pvi {
namespace {

Eigen::MatrixXd transform(const Eigen::VectorXd& m, const Eigen::VectorXd& sd, const Eigen::MatrixXd& eps) {
  if (eps.rows() != m.size())
    throw std::invalid_argument("sample: eps has " + std::to_string(eps.rows()) + " coordinates, q has " +
                                std::to_string(m.size()));
  return (sd.asDiagonal() * eps).colwise() + m;
}

Eigen::VectorXd sdOf(const MeanFieldStandard& q) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  return q.var.cwiseSqrt();
}

}  // namespace

Eigen::MatrixXd sampleColumns(const MeanFieldStandard& q, const Eigen::MatrixXd& eps) {
  return transform(q.m, sdOf(q), eps);
}

Eigen::VectorXd sample(const MeanFieldStandard& q, const Eigen::VectorXd& eps) {
  return sampleColumns(q, eps).col(0);
}

Eigen::MatrixXd sampleColumns(const MeanFieldStable& q, const Eigen::MatrixXd& eps) {
  return transform(q.m, standardDeviations(q), eps);
}

Eigen::VectorXd sample(const MeanFieldStable& q, const Eigen::VectorXd& eps) { return sampleColumns(q, eps).col(0); }

Eigen::MatrixXd sample(const MeanFieldStandard& q, std::size_t n, std::mt19937_64& rng) {
  const Eigen::VectorXd sd = sdOf(q);
  return transform(q.m, sd, standardNormals(q.dim(), static_cast<Eigen::Index>(n), rng));
}

}  // namespace pvi
