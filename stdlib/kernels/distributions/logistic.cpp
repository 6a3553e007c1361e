// logistic(y | mu, sigma): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_logistic_lpdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                    const double* sigma, int64_t s_sigma) {
  return pvi_logistic_lpdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

// log p = -z - log(sigma) - 2 log1p(exp(-z)), z = (y - mu)/sigma; symmetric in z, evaluated as
// -|z| - 2 log1p(exp(-|z|)) - log(sigma) (no overflow). d/dz = -tanh(z/2).
extern "C" double pvi_logistic_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                         int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                         double* g_mu, double* g_sigma) {
  double lp = 0.0;
  double log_sigma = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    if (i == 0 || s_sigma) log_sigma = std::log(si);
    double inv = 1.0 / si;
    double z = (yi - mi) * inv;
    double a = std::fabs(z);
    lp += -a - 2.0 * std::log1p(std::exp(-a)) - log_sigma;
    if (g_y || g_mu || g_sigma) {
      double th = std::tanh(0.5 * z);
      if (g_y) g_y[i * s_y] -= adj * th * inv;
      if (g_mu) g_mu[i * s_mu] += adj * th * inv;
      if (g_sigma) g_sigma[i * s_sigma] += adj * (z * th - 1.0) * inv;
    }
  }
  return lp;
}
