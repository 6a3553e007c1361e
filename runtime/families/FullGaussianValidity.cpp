#include "runtime/families/FullGaussianValidity.hpp"

#include "runtime/families/detail/LinearAlgebra.hpp"

#include <cmath>
#include <string>

namespace pvi {
namespace {

std::string shape(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// Shape and finiteness of a (vector, square matrix) pair, and symmetry of the matrix.
std::string vectorMatrixReason(const Eigen::VectorXd& v, const char* vName, const Eigen::MatrixXd& a,
                               const char* aName, bool requireSymmetric) {
  const Eigen::Index d = v.size();
  if (d == 0) return std::string("the dimension is zero (") + vName + " is empty)";
  if (a.rows() != d || a.cols() != d)
    return std::string(aName) + " is " + shape(a.rows(), a.cols()) + " but " + vName + " has length " +
           std::to_string(d);
  if (const std::string where = detail::firstNonFinite(v); !where.empty())
    return std::string(vName) + " has a non-finite entry at " + where;
  if (const std::string where = detail::firstNonFinite(a); !where.empty())
    return std::string(aName) + " has a non-finite entry at " + where;
  if (requireSymmetric) {
    if (const double asym = detail::relativeAsymmetry(a); asym > detail::kSymmetryTolerance)
      return std::string(aName) + " is not symmetric (relative asymmetry " + std::to_string(asym) + ")";
  }
  return {};
}

}  // namespace

namespace detail {

std::string factorisePrecision(const FullNatural& eta, Eigen::LLT<Eigen::MatrixXd>& precision) {
  if (std::string why = checkFactor(eta).reason; !why.empty()) return why;
  return choleskyReason(symmetrised(-2.0 * eta.eta2), "the precision -2*eta2", precision);
}

std::string factoriseCovariance(const Eigen::VectorXd& m, const Eigen::MatrixXd& S, const std::string& what,
                                Eigen::LLT<Eigen::MatrixXd>& covariance) {
  if (std::string why = vectorMatrixReason(m, "the mean", S, what.c_str(), true); !why.empty()) return why;
  return choleskyReason(symmetrised(S), what, covariance);
}

}  // namespace detail

Validity checkFactor(const FullNatural& eta) {
  return Validity{vectorMatrixReason(eta.eta1, "eta1", eta.eta2, "eta2", true)};
}

Validity checkDistribution(const FullNatural& eta) {
  Eigen::LLT<Eigen::MatrixXd> precision;
  if (std::string why = detail::factorisePrecision(eta, precision); !why.empty()) return Validity::invalid(why);
  if (!detail::firstNonFinite(Eigen::VectorXd(precision.solve(eta.eta1))).empty())
    return Validity::invalid("the mean P^{-1} eta1 is not finite (precision too close to singular)");
  if (!detail::firstNonFinite(detail::inverse(precision)).empty())
    return Validity::invalid("the covariance P^{-1} is not finite (precision too close to singular)");
  return Validity::valid();
}

Validity checkDistribution(const FullMean& mu) {
  if (std::string why = vectorMatrixReason(mu.m, "m", mu.second, "the second moment E[z z^T]", true); !why.empty())
    return Validity::invalid(why);
  const Eigen::MatrixXd S = detail::symmetrised(mu.second - mu.m * mu.m.transpose());
  return Validity{detail::positiveDefiniteReason(S, "the covariance E[z z^T] - m m^T")};
}

Validity checkDistribution(const FullStandard& q) {
  Eigen::LLT<Eigen::MatrixXd> covariance;
  return Validity{detail::factoriseCovariance(q.m, q.S, "the covariance S", covariance)};
}

Validity checkDistribution(const FullStable& q) {
  // Only the lower triangle of logCholesky is meaningful; the upper triangle is ignored.
  const Eigen::MatrixXd lower = q.logCholesky.triangularView<Eigen::Lower>();
  if (std::string why = vectorMatrixReason(q.m, "m", lower, "logCholesky (lower triangle)", false); !why.empty())
    return Validity::invalid(why);
  Eigen::MatrixXd L = lower;
  L.diagonal() = lower.diagonal().array().exp().matrix();
  for (Eigen::Index i = 0; i < L.rows(); ++i)
    if (!(L(i, i) > 0.0) || !std::isfinite(L(i, i)))
      return Validity::invalid("exp(logCholesky(" + std::to_string(i) + ", " + std::to_string(i) +
                               ")) is not positive and finite");
  if (!detail::firstNonFinite(Eigen::MatrixXd(L * L.transpose())).empty())
    return Validity::invalid("the covariance L L^T is not finite");
  return Validity::valid();
}

}  // namespace pvi
