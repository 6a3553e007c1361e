// lognormal_lcdf and lognormal_lccdf (y | mu, sigma): values and gradients. Normal log CDFs of
// z = (log y - mu) / sigma; for y <= 0 the CDF is 0 (lcdf -inf, lccdf 0, as in Stan).
#include "stdlib/kernels/distributions/cdf_support.hpp"

using namespace pvi::kern;

namespace {
double lognormalLogCdf(bool complement, double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                       int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y, double* g_mu,
                       double* g_sigma) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    if (yi <= 0.0) {  // at or below the support's edge: F = 0
      lp += complement ? 0.0 : -INFINITY;
      continue;
    }
    const double inv = 1.0 / si, z = (std::log(yi) - mi) * inv;
    const LogCdf c = complement ? reflected(logPhi, z) : logPhi(z);
    lp += c.value;
    if (!std::isfinite(c.value)) continue;  // probability 0: no gradient
    const double d = adj * c.slope * inv;
    if (g_y) g_y[i * s_y] += d / yi;
    if (g_mu) g_mu[i * s_mu] -= d;
    if (g_sigma) g_sigma[i * s_sigma] -= d * z;
  }
  return lp;
}
}  // namespace

extern "C" double pvi_lognormal_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                          int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                          double* g_mu, double* g_sigma) {
  return lognormalLogCdf(false, adj, n, y, s_y, mu, s_mu, sigma, s_sigma, g_y, g_mu, g_sigma);
}
extern "C" double pvi_lognormal_lcdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                     const double* sigma, int64_t s_sigma) {
  return lognormalLogCdf(false, 0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}
extern "C" double pvi_lognormal_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                           int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                           double* g_mu, double* g_sigma) {
  return lognormalLogCdf(true, adj, n, y, s_y, mu, s_mu, sigma, s_sigma, g_y, g_mu, g_sigma);
}
extern "C" double pvi_lognormal_lccdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                      const double* sigma, int64_t s_sigma) {
  return lognormalLogCdf(true, 0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}
