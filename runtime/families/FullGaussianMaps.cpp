#include "runtime/families/FullGaussianMaps.hpp"

#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <stdexcept>

namespace pvi {
namespace {

void requireFinite(const Eigen::VectorXd& m, const Eigen::MatrixXd& a, const char* what) {
  if (!detail::firstNonFinite(m).empty() || !detail::firstNonFinite(a).empty())
    throw std::invalid_argument(std::string(what) + " overflowed (input too close to singular)");
}

}  // namespace

FullStandard toStandard(const FullNatural& eta) {
  Eigen::LLT<Eigen::MatrixXd> precision;
  if (std::string why = detail::factorisePrecision(eta, precision); !why.empty()) throw std::invalid_argument(why);
  FullStandard q{precision.solve(eta.eta1), detail::inverse(precision)};
  requireFinite(q.m, q.S, "natural-to-standard map");
  return q;
}

FullNatural toNatural(const FullStandard& q) {
  Eigen::LLT<Eigen::MatrixXd> covariance;
  if (std::string why = detail::factoriseCovariance(q.m, q.S, "the covariance S", covariance); !why.empty())
    throw std::invalid_argument(why);
  FullNatural eta{covariance.solve(q.m), -0.5 * detail::inverse(covariance)};
  requireFinite(eta.eta1, eta.eta2, "standard-to-natural map");
  return eta;
}

FullMean toMean(const FullStandard& q) {
  if (Validity v = checkDistribution(q); !v) throw std::invalid_argument(v.reason);
  FullMean mu{q.m, detail::symmetrised(q.S) + q.m * q.m.transpose()};
  requireFinite(mu.m, mu.second, "standard-to-mean map");
  return mu;
}

FullStandard toStandard(const FullMean& mu) {
  if (Validity v = checkDistribution(mu); !v) throw std::invalid_argument(v.reason);
  return {mu.m, detail::symmetrised(mu.second - mu.m * mu.m.transpose())};
}

FullMean toMean(const FullNatural& eta) {
  const FullStandard q = toStandard(eta);  // already checked; S exactly symmetric
  FullMean mu{q.m, q.S + q.m * q.m.transpose()};
  requireFinite(mu.m, mu.second, "natural-to-mean map");
  return mu;
}

FullNatural toNatural(const FullMean& mu) { return toNatural(toStandard(mu)); }

}  // namespace pvi
