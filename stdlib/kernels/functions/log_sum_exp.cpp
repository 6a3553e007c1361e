// log_sum_exp(x) = log(sum exp(x_i)): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

// max + log(sum exp(x_i - max)); -INFINITY for n = 0 or all x_i = -INFINITY, +INFINITY if any
// x_i = +INFINITY, NaN if any is NaN.
extern "C" double pvi_log_sum_exp(int64_t n, const double* x) {
  double m = -INFINITY;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return NAN;
    m = x[i] > m ? x[i] : m;
  }
  if (m == -INFINITY || m == INFINITY) return m;
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

// d/dx_i = exp(x_i - out) = softmax(x)_i. Nothing is accumulated when out is infinite.
extern "C" void pvi_log_sum_exp_grad(int64_t n, const double* x, double out, double g_out, double* g_x) {
  if (!std::isfinite(out)) return;
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out * std::exp(x[i] - out);
}
