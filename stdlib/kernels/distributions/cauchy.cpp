// cauchy(y | mu, sigma): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_cauchy_lpdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                  const double* sigma, int64_t s_sigma) {
  return pvi_cauchy_lpdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

// log p = -log(pi) - log(sigma) - log1p(z^2), z = (y - mu) / sigma (z^2, and z itself, may
// overflow: kernel_support.hpp).
// d/dy = -2 z / (sigma (1 + z^2)), d/dmu = -d/dy, d/dsigma = (z^2 - 1) / (sigma (1 + z^2)); for
// |z| > 1 in terms of w = 1/z: d/dy = -2 / ((y - mu)(1 + w^2)), d/dsigma = (1 - w^2) / (sigma (1 + w^2)).
extern "C" double pvi_cauchy_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                       int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y, double* g_mu,
                                       double* g_sigma) {
  double lp = 0.0;
  double log_sigma = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    if (i == 0 || s_sigma) log_sigma = std::log(si);
    double d = yi - mi;
    double z = d / si;
    lp += -kLogPi - log_sigma - log1pSquareScaled(z, yi, mi, si);
    if (g_y || g_mu || g_sigma) {
      double dy, ratio;  // d/dy, (z^2 - 1) / (z^2 + 1)
      if (std::fabs(z) <= 1.0) {
        double z2 = z * z;
        dy = -2.0 * z / ((1.0 + z2) * si);
        ratio = (z2 - 1.0) / (z2 + 1.0);
      } else {
        double w = si / d, w2 = w * w;  // 1/z
        dy = -2.0 / (d * (1.0 + w2));
        ratio = (1.0 - w2) / (1.0 + w2);
      }
      if (g_y) g_y[i * s_y] += adj * dy;
      if (g_mu) g_mu[i * s_mu] -= adj * dy;
      if (g_sigma) g_sigma[i * s_sigma] += adj * ratio / si;
    }
  }
  return lp;
}
