#include "runtime/families/WassersteinBarycentre.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pvi {
namespace {

template <class Q>
Eigen::VectorXd averageMean(const std::vector<Q>& qs) {
  if (qs.empty()) throw std::invalid_argument("wassersteinBarycentre: no distributions");
  Eigen::VectorXd m = Eigen::VectorXd::Zero(qs.front().dim());
  for (const Q& q : qs) {
    if (q.dim() != m.size()) throw std::invalid_argument("wassersteinBarycentre: dimensions differ");
    m += q.m;
  }
  return m / static_cast<double>(qs.size());
}

// A^{p} for a symmetric positive semi-definite A (p = 1/2 or -1/2), by its eigendecomposition.
Eigen::MatrixXd symmetricPower(const Eigen::MatrixXd& A, double p) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (A + A.transpose()));
  if (eig.info() != Eigen::Success) throw std::runtime_error("wassersteinBarycentre: eigendecomposition failed");
  const Eigen::VectorXd values = eig.eigenvalues().cwiseMax(0.0).array().pow(p).matrix();
  return eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace

MeanFieldStandard wassersteinBarycentre(const std::vector<MeanFieldStandard>& qs) {
  MeanFieldStandard out{averageMean(qs), Eigen::VectorXd::Zero(qs.front().dim())};
  for (const MeanFieldStandard& q : qs) {
    if (!(q.var.array() > 0.0).all()) throw std::invalid_argument("wassersteinBarycentre: a variance is not positive");
    out.var += q.var.cwiseSqrt();
  }
  out.var = (out.var / static_cast<double>(qs.size())).cwiseAbs2();
  return out;
}

FullStandard wassersteinBarycentre(const std::vector<FullStandard>& qs, const BarycentreOptions& options,
                                   std::size_t* iterations) {
  FullStandard out{averageMean(qs), Eigen::MatrixXd::Zero(qs.front().dim(), qs.front().dim())};
  const double J = static_cast<double>(qs.size());
  for (const FullStandard& q : qs) out.S += q.S / J;
  for (std::size_t it = 1; it <= options.maxIterations; ++it) {
    const Eigen::MatrixXd root = symmetricPower(out.S, 0.5), inverseRoot = symmetricPower(out.S, -0.5);
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(out.S.rows(), out.S.cols());
    for (const FullStandard& q : qs) T += symmetricPower(root * q.S * root, 0.5) / J;
    Eigen::MatrixXd next = inverseRoot * T * T * inverseRoot;
    next = 0.5 * (next + next.transpose());
    const double change = (next - out.S).norm() / out.S.norm();
    out.S = next;
    if (iterations) *iterations = it;
    if (change <= options.tolerance) return out;
  }
  throw std::runtime_error("wassersteinBarycentre: no fixed point after " + std::to_string(options.maxIterations) +
                           " iterations");
}

}  // namespace pvi
