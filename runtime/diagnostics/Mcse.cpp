#include "runtime/diagnostics/Mcse.hpp"

#include <cmath>

#include "runtime/diagnostics/Ess.hpp"
#include "runtime/diagnostics/Moments.hpp"

namespace pvi::diagnostics {

double mcseMean(const IterationsByChains& draws) {
  return std::sqrt(sampleVariance(draws.reshaped())) / std::sqrt(essBasic(draws));
}

double mcseSd(const IterationsByChains& draws) {
  const Eigen::MatrixXd squares = (draws.array() - mean(draws.reshaped())).square().matrix();
  const double ess = essBasic(squares);
  const double variance = mean(squares.reshaped());
  const double varianceOfVariance = (mean(squares.array().square().matrix().reshaped()) - variance * variance) / ess;
  return std::sqrt(varianceOfVariance / variance / 4.0);
}

}  // namespace pvi::diagnostics
