// weibull(y | alpha, sigma), shape alpha and scale sigma: value and gradient. Support y > 0.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_weibull_lpdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                   const double* sigma, int64_t s_sigma) {
  return pvi_weibull_lpdf_grad(0.0, n, y, s_y, alpha, s_alpha, sigma, s_sigma, nullptr, nullptr, nullptr);
}

// With t = y / sigma: log p = log(alpha) - log(sigma) + (alpha - 1) log(t) - t^alpha;
// d/dy = ((alpha - 1) - alpha t^alpha) / y, d/dalpha = 1/alpha + log(t) (1 - t^alpha),
// d/dsigma = alpha (t^alpha - 1) / sigma. y = 0, where the density is finite only for alpha = 1,
// gives -inf (a set of measure zero; Stan's support is y >= 0).
extern "C" double pvi_weibull_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                        int64_t s_alpha, const double* sigma, int64_t s_sigma, double* g_y,
                                        double* g_alpha, double* g_sigma) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], ai = alpha[i * s_alpha], si = sigma[i * s_sigma];
    if (!positiveFinite(ai) || !positiveFinite(si) || !positiveFinite(yi)) return -INFINITY;
    const double logT = std::log(yi) - std::log(si);
    const double tA = std::exp(ai * logT);  // t^alpha
    lp += std::log(ai) - std::log(si) + (ai - 1.0) * logT - tA;
    if (g_y) g_y[i * s_y] += adj * ((ai - 1.0) - ai * tA) / yi;
    if (g_alpha) g_alpha[i * s_alpha] += adj * (1.0 / ai + logT * (1.0 - tA));
    if (g_sigma) g_sigma[i * s_sigma] += adj * ai * (tA - 1.0) / si;
  }
  return lp;
}
