#include "runtime/families/MeanFieldGaussianDivergence.hpp"

#include "runtime/families/MeanFieldGaussianValidity.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {
namespace {

template <class P>
void require(const P& params, const char* which) {
  if (Validity v = checkDistribution(params); !v) throw std::invalid_argument(std::string(which) + ": " + v.reason);
}

double entropyFromHalfLogDet(double d, double halfLogDet) {
  return 0.5 * d * (1.0 + std::log(2.0 * std::numbers::pi)) + halfLogDet;
}

}  // namespace

double kl(const MeanFieldStandard& q1, const MeanFieldStandard& q2) {
  if (q1.dim() != q2.dim())
    throw std::invalid_argument("kl: distributions of different dimensions (" + std::to_string(q1.dim()) + " and " +
                                std::to_string(q2.dim()) + ")");
  require(q1, "q1");
  require(q2, "q2");
  double twiceKl = 0.0;
  for (Eigen::Index i = 0; i < q1.dim(); ++i) {
    const double u = std::log(q1.var(i)) - std::log(q2.var(i));
    const double dm = q2.m(i) - q1.m(i);
    twiceKl += (std::expm1(u) - u) + dm * dm / q2.var(i);
  }
  return 0.5 * twiceKl;
}

double entropy(const MeanFieldStandard& q) {
  require(q, "q");
  return entropyFromHalfLogDet(static_cast<double>(q.dim()), 0.5 * q.var.array().log().sum());
}

double entropy(const MeanFieldStable& q) {
  require(q, "q");
  return entropyFromHalfLogDet(static_cast<double>(q.dim()), q.logSd.sum());
}

}  // namespace pvi
