#include "runtime/diagnostics/ParetoKhat.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace pvi::diagnostics {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The profile log-likelihood per observation of the GPD at b = -theta: log(b / k) - k - 1 with
// k = mean(log1p(b x)) (Zhang and Stephens 2009, loo's lx).
double profileLogLikelihood(double theta, const std::vector<double>& x) {
  const double b = -theta;
  double k = 0.0;
  for (double v : x) k += std::log1p(b * v);
  k /= static_cast<double>(x.size());
  return std::log(b / k) - k - 1.0;
}

}  // namespace

GeneralizedPareto fitGeneralizedPareto(const std::vector<double>& x) {
  const std::size_t n = x.size();
  const double prior = 3.0;
  const std::size_t m = 30 + static_cast<std::size_t>(std::floor(std::sqrt(static_cast<double>(n))));
  const double xstar = x[static_cast<std::size_t>(std::floor(static_cast<double>(n) / 4.0 + 0.5)) - 1];  // R: 1-based
  std::vector<double> theta(m), logLik(m);
  double maxLogLik = -kInf;
  for (std::size_t j = 0; j < m; ++j) {
    theta[j] =
        1.0 / x[n - 1] + (1.0 - std::sqrt(static_cast<double>(m) / (static_cast<double>(j + 1) - 0.5))) / prior / xstar;
    logLik[j] = static_cast<double>(n) * profileLogLikelihood(theta[j], x);
    maxLogLik = std::max(maxLogLik, logLik[j]);
  }
  double sumWeights = 0.0, thetaHat = 0.0;
  for (std::size_t j = 0; j < m; ++j) sumWeights += std::exp(logLik[j] - maxLogLik);
  for (std::size_t j = 0; j < m; ++j) thetaHat += theta[j] * std::exp(logLik[j] - maxLogLik) / sumWeights;
  double k = 0.0;
  for (double v : x) k += std::log1p(-thetaHat * v);
  k /= static_cast<double>(n);
  const double sigma = -k / thetaHat;
  const double a = 10.0;  // the weakly informative prior's weight, towards 0.5
  k = k * static_cast<double>(n) / (static_cast<double>(n) + a) + a * 0.5 / (static_cast<double>(n) + a);
  return {std::isnan(k) ? kInf : k, sigma};
}

SmoothedWeights paretoSmoothedWeights(const Eigen::Ref<const Eigen::VectorXd>& logRatios, double rEff) {
  SmoothedWeights out{logRatios, kInf};
  const Eigen::Index s = logRatios.size();
  for (Eigen::Index i = 0; i < s; ++i)
    if (std::isnan(logRatios[i])) {
      out.khat = std::numeric_limits<double>::quiet_NaN();
      return out;
    }
  const auto tail = static_cast<Eigen::Index>(
      std::ceil(std::min(0.2 * static_cast<double>(s), 3.0 * std::sqrt(static_cast<double>(s) / rEff))));
  if (tail < 5 || tail >= s) return out;
  std::vector<Eigen::Index> order(static_cast<std::size_t>(s));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return logRatios[a] < logRatios[b]; });
  const auto sorted = [&](Eigen::Index i) { return logRatios[order[static_cast<std::size_t>(i)]]; };
  const double max = sorted(s - 1);
  if (!std::isfinite(max)) return out;
  if (std::abs(max - sorted(s - tail)) < std::numeric_limits<double>::epsilon() / 100) return out;
  // The exceedances of the tail's ratios over the cutoff's, scaled by the largest ratio.
  const double cutoff = std::exp(sorted(s - tail - 1) - max);
  std::vector<double> x(static_cast<std::size_t>(tail));
  for (Eigen::Index i = 0; i < tail; ++i) x[static_cast<std::size_t>(i)] = std::exp(sorted(s - tail + i) - max) - cutoff;
  const GeneralizedPareto fit = fitGeneralizedPareto(x);
  out.khat = fit.k;
  if (!std::isfinite(fit.k)) return out;
  for (Eigen::Index i = 0; i < tail; ++i) {
    // The fitted quantile at p = (i + 1/2) / M (loo's qgpd), on the ratios' scale, at most the largest.
    const double p = (static_cast<double>(i) + 0.5) / static_cast<double>(tail);
    const double q = std::abs(fit.k) > 1e-12 ? fit.sigma * std::expm1(-fit.k * std::log1p(-p)) / fit.k
                                             : -fit.sigma * std::log1p(-p);
    out.logWeights[order[static_cast<std::size_t>(s - tail + i)]] = std::min(std::log(q + cutoff), 0.0) + max;
  }
  return out;
}

double paretoKhat(const Eigen::Ref<const Eigen::VectorXd>& logRatios, double rEff) {
  return paretoSmoothedWeights(logRatios, rEff).khat;
}

}  // namespace pvi::diagnostics
