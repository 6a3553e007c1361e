#include "runtime/families/MeanFieldGaussianLogPartition.hpp"

#include "runtime/families/MeanFieldGaussianMaps.hpp"
#include "runtime/families/MeanFieldGaussianValidity.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {

double logPartition(const MeanFieldNatural& eta) {
  if (Validity v = checkDistribution(eta); !v) throw std::invalid_argument(v.reason);
  const double d = static_cast<double>(eta.dim());
  const double value = (-0.25 * eta.eta1.array().square() / eta.eta2.array()).sum() -
                       0.5 * (-2.0 * eta.eta2.array()).log().sum() + 0.5 * d * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(value)) throw std::invalid_argument("log-partition overflowed (precision too close to zero)");
  return value;
}

MeanFieldMean gradLogPartition(const MeanFieldNatural& eta) { return toMean(eta); }

}  // namespace pvi
