#include "runtime/diagnostics/Ess.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "runtime/diagnostics/Autocovariance.hpp"
#include "runtime/diagnostics/Moments.hpp"
#include "runtime/diagnostics/Quantile.hpp"
#include "runtime/diagnostics/Transforms.hpp"

namespace pvi::diagnostics {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// tau_hat = -1 + 2 sum_{t=0}^{maxT-1} rho_t + rho_maxT after Geyer's truncation and monotone
// smoothing, with posterior 1.4's index arithmetic (see README: when the sequence stops at once,
// maxT = 0, its sum is rho_0 = 1, so tau_hat = 2).
double integratedAutocorrelationTime(const Eigen::VectorXd& meanAutocovariance, double meanVariance, double varPlus) {
  const Eigen::Index n = meanAutocovariance.size();
  const auto rhoAt = [&](Eigen::Index t) { return 1.0 - (meanVariance - meanAutocovariance[t]) / varPlus; };
  Eigen::VectorXd rho = Eigen::VectorXd::Zero(n);
  double even = 1.0;
  double odd = rhoAt(1);
  rho[0] = even;
  rho[1] = odd;
  // Initial positive sequence: stop at the first pair (even, odd) whose sum is not positive.
  Eigen::Index t = 0;
  while (t < n - 5 && !std::isnan(even + odd) && even + odd > 0.0) {
    t += 2;
    even = rhoAt(t);
    odd = rhoAt(t + 1);
    if (even + odd >= 0.0) {
      rho[t] = even;
      rho[t + 1] = odd;
    }
  }
  const Eigen::Index maxT = t;
  if (even > 0.0) rho[maxT] = even;
  // Initial monotone sequence: no pair sum above the one before it.
  for (Eigen::Index s = 2; s <= maxT - 2; s += 2) {
    const double previous = rho[s - 2] + rho[s - 1];
    if (rho[s] + rho[s + 1] > previous) rho[s] = rho[s + 1] = previous / 2.0;
  }
  const double head = maxT == 0 ? rho[0] : rho.head(maxT).sum();
  return -1.0 + 2.0 * head + rho[maxT];
}

}  // namespace

double essBasic(const IterationsByChains& draws, bool split) {
  if (split) return essBasic(splitChains(draws), false);
  const Eigen::Index n = draws.rows();
  const Eigen::Index chains = draws.cols();
  if (n < 3 || undiagnosable(draws)) return kNaN;
  Eigen::VectorXd meanAutocovariance = Eigen::VectorXd::Zero(n);
  for (Eigen::Index c = 0; c < chains; ++c) meanAutocovariance += autocovariance(draws.col(c));
  meanAutocovariance /= static_cast<double>(chains);
  const auto iterations = static_cast<double>(n);
  const double meanVariance = meanAutocovariance[0] * iterations / (iterations - 1.0);  // W
  double varPlus = meanVariance * (iterations - 1.0) / iterations;
  if (chains > 1) varPlus += sampleVariance(columnMeans(draws));
  const double size = iterations * static_cast<double>(chains);
  const double tau =
      std::max(integratedAutocorrelationTime(meanAutocovariance, meanVariance, varPlus), 1.0 / std::log10(size));
  return size / tau;
}

double essBulk(const IterationsByChains& draws) { return essBasic(rankNormalise(splitChains(draws)), false); }

double essQuantile(const IterationsByChains& draws, double prob) {
  if (!(prob >= 0.0 && prob <= 1.0)) throw std::invalid_argument("essQuantile: the probability must be in [0, 1]");
  if (undiagnosable(draws)) return kNaN;
  if (prob == 1.0) {
    const auto size = static_cast<double>(draws.size());
    prob = (size - 0.5) / size;
  }
  const double q = quantile(draws, prob);
  return essBasic((draws.array() <= q).cast<double>().matrix(), true);
}

double essTail(const IterationsByChains& draws) {
  const double lower = essQuantile(draws, 0.05);
  const double upper = essQuantile(draws, 0.95);
  return std::isnan(lower) || std::isnan(upper) ? kNaN : std::min(lower, upper);
}

}  // namespace pvi::diagnostics
