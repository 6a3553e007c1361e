#include "runtime/families/MeanFieldGaussianMaps.hpp"

#include "runtime/families/MeanFieldGaussianValidity.hpp"
#include "runtime/families/detail/LinearAlgebra.hpp"

#include <stdexcept>

namespace pvi {
namespace {

template <class P>
void require(const P& params) {
  if (Validity v = checkDistribution(params); !v) throw std::invalid_argument(v.reason);
}

void requireFinite(const Eigen::VectorXd& a, const Eigen::VectorXd& b, const char* what) {
  if (!detail::firstNonFinite(a).empty() || !detail::firstNonFinite(b).empty())
    throw std::invalid_argument(std::string(what) + " overflowed");
}

}  // namespace

MeanFieldStandard toStandard(const MeanFieldNatural& eta) {
  require(eta);
  const Eigen::VectorXd var = (-2.0 * eta.eta2).cwiseInverse();
  return {eta.eta1.cwiseProduct(var), var};
}

MeanFieldNatural toNatural(const MeanFieldStandard& q) {
  require(q);
  const Eigen::VectorXd precision = q.var.cwiseInverse();
  MeanFieldNatural eta{q.m.cwiseProduct(precision), -0.5 * precision};
  requireFinite(eta.eta1, eta.eta2, "standard-to-natural map");
  return eta;
}

MeanFieldMean toMean(const MeanFieldStandard& q) {
  require(q);
  MeanFieldMean mu{q.m, q.var + q.m.cwiseAbs2()};
  requireFinite(mu.m, mu.second, "standard-to-mean map");
  return mu;
}

MeanFieldStandard toStandard(const MeanFieldMean& mu) {
  require(mu);
  return {mu.m, mu.second - mu.m.cwiseAbs2()};
}

MeanFieldMean toMean(const MeanFieldNatural& eta) { return toMean(toStandard(eta)); }

MeanFieldNatural toNatural(const MeanFieldMean& mu) { return toNatural(toStandard(mu)); }

}  // namespace pvi
