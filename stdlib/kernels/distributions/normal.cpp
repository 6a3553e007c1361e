// normal(y | mu, sigma): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

namespace {
constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2 pi) / 2
}

extern "C" double pvi_normal_lpdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                  const double* sigma, int64_t s_sigma) {
  return pvi_normal_lpdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

extern "C" double pvi_normal_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                       int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y, double* g_mu,
                                       double* g_sigma) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!(si > 0.0) || !std::isfinite(si) || !std::isfinite(yi) || !std::isfinite(mi)) return -INFINITY;
    double inv = 1.0 / si;
    double z = (yi - mi) * inv;
    lp += -0.5 * z * z - std::log(si) - kHalfLog2Pi;
    double dy = -z * inv;  // d lp / d y
    if (g_y) g_y[i * s_y] += adj * dy;
    if (g_mu) g_mu[i * s_mu] -= adj * dy;
    if (g_sigma) g_sigma[i * s_sigma] += adj * (z * z - 1.0) * inv;
  }
  return lp;
}
