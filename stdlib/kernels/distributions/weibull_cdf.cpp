// weibull_lcdf and weibull_lccdf (y | alpha, sigma): values and gradients, with t = (y / sigma)^alpha:
//   lccdf = -t;  lcdf = log(1 - exp(-t)), d/dt = 1 / expm1(t);
//   dt/dy = alpha t / y, dt/dalpha = t log(y / sigma), dt/dsigma = -alpha t / sigma.
// y <= 0 gives lcdf -inf and lccdf 0 (F = 0 there, as in Stan).
#include "stdlib/kernels/distributions/cdf_support.hpp"

using namespace pvi::kern;

namespace {
double weibullLogCdf(bool complement, double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                     int64_t s_alpha, const double* sigma, int64_t s_sigma, double* g_y, double* g_alpha,
                     double* g_sigma) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], ai = alpha[i * s_alpha], si = sigma[i * s_sigma];
    if (!positiveFinite(ai) || !positiveFinite(si) || !isFinite(yi)) return -INFINITY;
    if (yi <= 0.0) {  // at or below the support's edge: F = 0
      lp += complement ? 0.0 : -INFINITY;
      continue;
    }
    const double logRatio = std::log(yi) - std::log(si), t = std::exp(ai * logRatio);
    const LogCdf c = complement ? LogCdf{-t, -1.0} : log1mExpNeg(t);
    lp += c.value;
    // t = inf: lcdf = 0 there, flat, and lccdf = -inf; t = 0 (underflow): lcdf = -inf.
    if (!(t < INFINITY) || !std::isfinite(c.value)) continue;
    const double d = adj * c.slope * t;
    if (g_y) g_y[i * s_y] += d * ai / yi;
    if (g_alpha) g_alpha[i * s_alpha] += d * logRatio;
    if (g_sigma) g_sigma[i * s_sigma] -= d * ai / si;
  }
  return lp;
}
}  // namespace

extern "C" double pvi_weibull_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                        int64_t s_alpha, const double* sigma, int64_t s_sigma, double* g_y,
                                        double* g_alpha, double* g_sigma) {
  return weibullLogCdf(false, adj, n, y, s_y, alpha, s_alpha, sigma, s_sigma, g_y, g_alpha, g_sigma);
}
extern "C" double pvi_weibull_lcdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                   const double* sigma, int64_t s_sigma) {
  return weibullLogCdf(false, 0.0, n, y, s_y, alpha, s_alpha, sigma, s_sigma, nullptr, nullptr, nullptr);
}
extern "C" double pvi_weibull_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                         int64_t s_alpha, const double* sigma, int64_t s_sigma, double* g_y,
                                         double* g_alpha, double* g_sigma) {
  return weibullLogCdf(true, adj, n, y, s_y, alpha, s_alpha, sigma, s_sigma, g_y, g_alpha, g_sigma);
}
extern "C" double pvi_weibull_lccdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                    const double* sigma, int64_t s_sigma) {
  return weibullLogCdf(true, 0.0, n, y, s_y, alpha, s_alpha, sigma, s_sigma, nullptr, nullptr, nullptr);
}
