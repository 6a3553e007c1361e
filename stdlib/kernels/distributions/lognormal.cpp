// lognormal(y | mu, sigma): value and gradient. Support y > 0 (y = 0 gives -INFINITY).
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_lognormal_lpdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                     const double* sigma, int64_t s_sigma) {
  return pvi_lognormal_lpdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

extern "C" double pvi_lognormal_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                          int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                          double* g_mu, double* g_sigma) {
  double lp = 0.0;
  double log_sigma = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !positiveFinite(yi) || !isFinite(mi)) return -INFINITY;
    if (i == 0 || s_sigma) log_sigma = std::log(si);
    double inv = 1.0 / si;
    double log_y = std::log(yi);
    double z = (log_y - mi) * inv;
    lp += -0.5 * z * z - log_sigma - kHalfLog2Pi - log_y;
    if (g_y) g_y[i * s_y] -= adj * (z * inv + 1.0) / yi;
    if (g_mu) g_mu[i * s_mu] += adj * z * inv;
    if (g_sigma) g_sigma[i * s_sigma] += adj * (z * z - 1.0) * inv;
  }
  return lp;
}
