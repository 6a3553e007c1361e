#include "runtime/families/detail/LinearAlgebra.hpp"

#include <algorithm>
#include <cmath>

namespace pvi::detail {

std::string firstNonFinite(const Eigen::MatrixXd& a) {
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      if (!std::isfinite(a(i, j))) return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
  return {};
}

std::string firstNonFinite(const Eigen::VectorXd& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!std::isfinite(v(i))) return "[" + std::to_string(i) + "]";
  return {};
}

double relativeAsymmetry(const Eigen::MatrixXd& a) {
  if (a.size() == 0) return 0.0;
  const double scale = std::max(1.0, a.cwiseAbs().maxCoeff());
  return (a - a.transpose()).cwiseAbs().maxCoeff() / scale;
}

Eigen::MatrixXd symmetrised(const Eigen::MatrixXd& a) { return 0.5 * (a + a.transpose()); }

std::string choleskyReason(const Eigen::MatrixXd& a, const std::string& what, Eigen::LLT<Eigen::MatrixXd>& llt) {
  if (a.rows() != a.cols())
    return what + " is not square (" + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) + ")";
  if (const std::string where = firstNonFinite(a); !where.empty())
    return what + " has a non-finite entry at " + where;
  llt.compute(a);
  if (llt.info() != Eigen::Success) return what + " is not positive definite (Cholesky factorisation failed)";
  const auto& l = llt.matrixLLT();
  for (Eigen::Index i = 0; i < l.rows(); ++i) {
    if (!(l(i, i) > 0.0) || !std::isfinite(l(i, i)))
      return what + " is numerically singular (Cholesky pivot " + std::to_string(i) + " is not positive and finite)";
    for (Eigen::Index j = 0; j < i; ++j)
      if (!std::isfinite(l(i, j))) return what + " has a non-finite Cholesky factor";
  }
  return {};
}

std::string positiveDefiniteReason(const Eigen::MatrixXd& a, const std::string& what) {
  Eigen::LLT<Eigen::MatrixXd> llt;
  return choleskyReason(a, what, llt);
}

double logDet(const Eigen::LLT<Eigen::MatrixXd>& llt) {
  return 2.0 * llt.matrixLLT().diagonal().array().log().sum();
}

Eigen::MatrixXd inverse(const Eigen::LLT<Eigen::MatrixXd>& llt) {
  const Eigen::Index d = llt.matrixLLT().rows();
  return symmetrised(llt.solve(Eigen::MatrixXd::Identity(d, d)));
}

}  // namespace pvi::detail
