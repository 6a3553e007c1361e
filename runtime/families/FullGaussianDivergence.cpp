#include "runtime/families/FullGaussianDivergence.hpp"

#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {
namespace {

Eigen::LLT<Eigen::MatrixXd> covarianceFactor(const FullStandard& q, const char* which) {
  Eigen::LLT<Eigen::MatrixXd> llt;
  if (std::string why = detail::factoriseCovariance(q.m, q.S, std::string("the covariance of ") + which, llt);
      !why.empty())
    throw std::invalid_argument(why);
  return llt;
}

double entropyFromHalfLogDet(double d, double halfLogDet) {
  return 0.5 * d * (1.0 + std::log(2.0 * std::numbers::pi)) + halfLogDet;
}

}  // namespace

double kl(const FullStandard& q1, const FullStandard& q2) {
  if (q1.dim() != q2.dim())
    throw std::invalid_argument("kl: distributions of different dimensions (" + std::to_string(q1.dim()) + " and " +
                                std::to_string(q2.dim()) + ")");
  const auto f1 = covarianceFactor(q1, "q1");
  const auto f2 = covarianceFactor(q2, "q2");
  const Eigen::MatrixXd L1 = f1.matrixL();
  const auto L2 = f2.matrixL();
  const Eigen::MatrixXd A = L2.solve(L1);  // L2^{-1} L1, lower triangular
  const Eigen::VectorXd b = L2.solve(Eigen::VectorXd(q2.m - q1.m));
  double twiceKl = b.squaredNorm();
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    const double u = 2.0 * (std::log(L1(j, j)) - std::log(f2.matrixLLT()(j, j)));  // log A_jj^2
    twiceKl += std::expm1(u) - u;
    for (Eigen::Index i = j + 1; i < A.rows(); ++i) twiceKl += A(i, j) * A(i, j);
  }
  return 0.5 * twiceKl;
}

double entropy(const FullStandard& q) {
  const auto f = covarianceFactor(q, "q");
  return entropyFromHalfLogDet(static_cast<double>(q.dim()), 0.5 * detail::logDet(f));
}

double entropy(const FullStable& q) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  return entropyFromHalfLogDet(static_cast<double>(q.dim()), q.logCholesky.diagonal().sum());
}

}  // namespace pvi
