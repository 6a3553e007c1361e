#include "runtime/families/MeanFieldGaussianValidity.hpp"

#include "runtime/families/detail/LinearAlgebra.hpp"

#include <cmath>
#include <string>

namespace pvi {
namespace {

// Same length, non-empty, all finite.
std::string pairReason(const Eigen::VectorXd& a, const char* aName, const Eigen::VectorXd& b, const char* bName) {
  if (a.size() == 0) return std::string("the dimension is zero (") + aName + " is empty)";
  if (b.size() != a.size())
    return std::string(bName) + " has length " + std::to_string(b.size()) + " but " + aName + " has length " +
           std::to_string(a.size());
  if (const std::string where = detail::firstNonFinite(a); !where.empty())
    return std::string(aName) + " has a non-finite entry at " + where;
  if (const std::string where = detail::firstNonFinite(b); !where.empty())
    return std::string(bName) + " has a non-finite entry at " + where;
  return {};
}

// Every entry > 0 (a NaN fails too).
std::string positiveReason(const Eigen::VectorXd& v, const std::string& what) {
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!(v(i) > 0.0)) return what + " is not positive at [" + std::to_string(i) + "] (" + std::to_string(v(i)) + ")";
  return {};
}

}  // namespace

Validity checkFactor(const MeanFieldNatural& eta) { return Validity{pairReason(eta.eta1, "eta1", eta.eta2, "eta2")}; }

Validity checkDistribution(const MeanFieldNatural& eta) {
  if (std::string why = pairReason(eta.eta1, "eta1", eta.eta2, "eta2"); !why.empty()) return Validity::invalid(why);
  const Eigen::VectorXd precision = -2.0 * eta.eta2;
  if (std::string why = positiveReason(precision, "the precision -2*eta2"); !why.empty()) return Validity::invalid(why);
  const Eigen::VectorXd var = precision.cwiseInverse();
  if (!detail::firstNonFinite(var).empty() || !detail::firstNonFinite(Eigen::VectorXd(eta.eta1.cwiseProduct(var))).empty())
    return Validity::invalid("the mean or variance is not finite (precision too close to zero)");
  return Validity::valid();
}

Validity checkDistribution(const MeanFieldMean& mu) {
  if (std::string why = pairReason(mu.m, "m", mu.second, "the second moments E[z_i^2]"); !why.empty())
    return Validity::invalid(why);
  return Validity{positiveReason(mu.second - mu.m.cwiseAbs2(), "the variance E[z_i^2] - m_i^2")};
}

Validity checkDistribution(const MeanFieldStandard& q) {
  if (std::string why = pairReason(q.m, "m", q.var, "the variances"); !why.empty()) return Validity::invalid(why);
  return Validity{positiveReason(q.var, "the variance")};
}

Validity checkDistribution(const MeanFieldStable& q) {
  if (std::string why = pairReason(q.m, "m", q.logSd, "logSd"); !why.empty()) return Validity::invalid(why);
  const Eigen::VectorXd var = (2.0 * q.logSd.array()).exp().matrix();
  if (!detail::firstNonFinite(var).empty()) return Validity::invalid("exp(2 logSd) overflows");
  return Validity{positiveReason(var, "exp(2 logSd)")};
}

}  // namespace pvi
