// double_exponential(y | mu, sigma) (the Laplace distribution): value and gradient.
//   log p = -log(2 sigma) - |y - mu| / sigma,
//   d/dy = -sign(y - mu) / sigma,  d/dmu = sign(y - mu) / sigma,  d/dsigma = (|y - mu| / sigma - 1) / sigma,
// with sign(0) = 0 at the kink (the subgradient Stan's uses).
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_double_exponential_lpdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                              const double* sigma, int64_t s_sigma) {
  return pvi_double_exponential_lpdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

extern "C" double pvi_double_exponential_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                                   int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                                   double* g_mu, double* g_sigma) {
  double lp = 0.0;
  double log_two_sigma = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    if (i == 0 || s_sigma) log_two_sigma = std::log(2.0 * si);
    const double inv = 1.0 / si;
    const double d = yi - mi;
    const double a = std::fabs(d) * inv;
    lp += -log_two_sigma - a;
    const double sign = d > 0.0 ? 1.0 : d < 0.0 ? -1.0 : 0.0;
    if (g_y) g_y[i * s_y] -= adj * sign * inv;
    if (g_mu) g_mu[i * s_mu] += adj * sign * inv;
    if (g_sigma) g_sigma[i * s_sigma] += adj * (a - 1.0) * inv;
  }
  return lp;
}
