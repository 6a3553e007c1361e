// poisson_log(y | alpha) = poisson(y | exp(alpha)): value and gradient.
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"

using namespace pvi::kern;

extern "C" double pvi_poisson_log_lpmf(int64_t n, const int64_t* y, int64_t s_y, const double* alpha,
                                       int64_t s_alpha) {
  return pvi_poisson_log_lpmf_grad(0.0, n, y, s_y, alpha, s_alpha, nullptr);
}

// log p = y alpha - exp(alpha) - lgamma(y + 1). For alpha <= 0 the three terms are all <= 0 and
// the direct form is exact to rounding (and exp(alpha) may underflow harmlessly); for alpha > 0
// Loader's saddle-point form (saddle_point.hpp) with lambda = exp(alpha) avoids the cancellation of
// y alpha against lgamma(y + 1) for large counts. d/dalpha = y - exp(alpha).
extern "C" double pvi_poisson_log_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y,
                                            const double* alpha, int64_t s_alpha, double* g_alpha) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y];
    double ai = alpha[i * s_alpha];
    if (!isFinite(ai) || yi < 0) return -INFINITY;
    double yd = static_cast<double>(yi);
    double lambda = std::exp(ai);
    if (lambda == INFINITY) return -INFINITY;  // the value is below -1e308
    if (ai <= 0.0)
      lp += yd * ai - lambda - lgam(yd + 1.0);
    else
      lp += logPoisRaw(yd, lambda);
    if (g_alpha) g_alpha[i * s_alpha] += adj * (yd - lambda);
  }
  return lp;
}
