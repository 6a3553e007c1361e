#include "runtime/diagnostics/ParetoKhat.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

double generalizedParetoShape(const std::vector<double>& x) {
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
  const double a = 10.0;  // the weakly informative prior's weight, towards 0.5
  k = k * static_cast<double>(n) / (static_cast<double>(n) + a) + a * 0.5 / (static_cast<double>(n) + a);
  return std::isnan(k) ? kInf : k;
}

double paretoKhat(const Eigen::Ref<const Eigen::VectorXd>& logRatios, double rEff) {
  const auto s = static_cast<std::size_t>(logRatios.size());
  for (Eigen::Index i = 0; i < logRatios.size(); ++i)
    if (std::isnan(logRatios[i])) return std::numeric_limits<double>::quiet_NaN();
  const auto tail = static_cast<std::size_t>(
      std::ceil(std::min(0.2 * static_cast<double>(s), 3.0 * std::sqrt(static_cast<double>(s) / rEff))));
  if (tail < 5 || tail >= s) return kInf;
  std::vector<double> lw(logRatios.data(), logRatios.data() + s);
  std::sort(lw.begin(), lw.end());
  const double max = lw.back();
  if (!std::isfinite(max)) return kInf;
  const double cutoff = lw[s - tail - 1] - max;
  if (std::abs(lw.back() - lw[s - tail]) < std::numeric_limits<double>::epsilon() / 100) return kInf;
  // The exceedances of the tail's ratios over the cutoff's, scaled by the largest ratio.
  std::vector<double> x(tail);
  for (std::size_t i = 0; i < tail; ++i) x[i] = std::exp(lw[s - tail + i] - max) - std::exp(cutoff);
  return generalizedParetoShape(x);
}

}  // namespace pvi::diagnostics
