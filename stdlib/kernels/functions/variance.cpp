// variance(x) and sd(x), as Stan: the sample variance with denominator n - 1 (0 for one element,
// NaN for none), and its square root. Two passes (the mean, then the squared deviations) for
// accuracy where the mean is large against the spread.
#include <cmath>

#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/kernel_support.hpp"

extern "C" double pvi_variance(int64_t n, const double* x) {
  if (n == 0) return NAN;
  if (n == 1) return 0.0;
  const double m = pvi_mean(n, x);
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += (x[i] - m) * (x[i] - m);
  return s / static_cast<double>(n - 1);
}

// d/dx_i = 2 (x_i - mean) / (n - 1) (the deviations sum to 0, so the mean's dependence drops out).
extern "C" void pvi_variance_grad(int64_t n, const double* x, double /*out*/, double g_out, double* g_x) {
  if (n < 2) return;
  const double m = pvi_mean(n, x), c = 2.0 * g_out / static_cast<double>(n - 1);
  for (int64_t i = 0; i < n; ++i) g_x[i] += c * (x[i] - m);
}

extern "C" double pvi_sd(int64_t n, const double* x) { return std::sqrt(pvi_variance(n, x)); }

// d sd = d variance / (2 sd); nothing where sd is 0 (all elements equal: no derivative).
extern "C" void pvi_sd_grad(int64_t n, const double* x, double out, double g_out, double* g_x) {
  if (!(out > 0.0)) return;
  pvi_variance_grad(n, x, out * out, g_out / (2.0 * out), g_x);
}
