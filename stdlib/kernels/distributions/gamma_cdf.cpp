// gamma_lcdf and gamma_lccdf (y | alpha, beta): values and gradients. The CDF is the regularised
// incomplete gamma function P(alpha, beta y) (Boost); its derivative in y and beta comes from
// Boost's gamma_p_derivative. Its derivative in alpha has no closed form: it is the
// Richardson-extrapolated central difference of the log CDF in alpha (cdf_support.hpp), computed
// only when alpha needs a gradient. y <= 0 gives lcdf -inf and lccdf 0 (F = 0 there, as in Stan).
#include <boost/math/special_functions/gamma.hpp>

#include "stdlib/kernels/distributions/cdf_support.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

namespace {
// log P(a, x) (or log Q(a, x)) from the side where it is small, given both.
double logFromSmallSide(bool complement, double p, double q) {
  return complement ? (q < 0.5 ? std::log(q) : std::log1p(-p)) : (p < 0.5 ? std::log(p) : std::log1p(-q));
}

// The value alone (all the Richardson steps in a need).
double gammaLogCdfValue(bool complement, double a, double x) {
  return logFromSmallSide(complement, boost::math::gamma_p(a, x, BoostPolicy()),
                          boost::math::gamma_q(a, x, BoostPolicy()));
}

// The value and its derivative in x.
LogCdf gammaLogCdf(bool complement, double a, double x) {
  const double p = boost::math::gamma_p(a, x, BoostPolicy()), q = boost::math::gamma_q(a, x, BoostPolicy());
  const double dp = boost::math::gamma_p_derivative(a, x, BoostPolicy());
  return {logFromSmallSide(complement, p, q), complement ? -dp / q : dp / p};
}

double gammaLogCdfSum(bool complement, double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                      int64_t s_alpha, const double* beta, int64_t s_beta, double* g_y, double* g_alpha,
                      double* g_beta) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], ai = alpha[i * s_alpha], bi = beta[i * s_beta];
    if (!positiveFinite(ai) || !positiveFinite(bi) || !isFinite(yi)) return -INFINITY;
    if (yi <= 0.0) {  // at or below the support's edge: F = 0
      lp += complement ? 0.0 : -INFINITY;
      continue;
    }
    const double x = bi * yi;
    const LogCdf c = gammaLogCdf(complement, ai, x);
    lp += c.value;
    if (!std::isfinite(c.value)) continue;
    if (g_y) g_y[i * s_y] += adj * c.slope * bi;
    if (g_beta) g_beta[i * s_beta] += adj * c.slope * yi;
    if (g_alpha && adj != 0.0)
      g_alpha[i * s_alpha] +=
          adj * richardsonDerivative([&](double a) { return gammaLogCdfValue(complement, a, x); }, ai);
  }
  return lp;
}
}  // namespace

extern "C" double pvi_gamma_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                      int64_t s_alpha, const double* beta, int64_t s_beta, double* g_y,
                                      double* g_alpha, double* g_beta) {
  return gammaLogCdfSum(false, adj, n, y, s_y, alpha, s_alpha, beta, s_beta, g_y, g_alpha, g_beta);
}
extern "C" double pvi_gamma_lcdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                 const double* beta, int64_t s_beta) {
  return gammaLogCdfSum(false, 0.0, n, y, s_y, alpha, s_alpha, beta, s_beta, nullptr, nullptr, nullptr);
}
extern "C" double pvi_gamma_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                       int64_t s_alpha, const double* beta, int64_t s_beta, double* g_y,
                                       double* g_alpha, double* g_beta) {
  return gammaLogCdfSum(true, adj, n, y, s_y, alpha, s_alpha, beta, s_beta, g_y, g_alpha, g_beta);
}
extern "C" double pvi_gamma_lccdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                  const double* beta, int64_t s_beta) {
  return gammaLogCdfSum(true, 0.0, n, y, s_y, alpha, s_alpha, beta, s_beta, nullptr, nullptr, nullptr);
}
