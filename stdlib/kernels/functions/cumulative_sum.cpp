// cumulative_sum(x): out_i = x_1 + ... + x_i (Stan's), value and gradient: g_x_i = sum_{j >= i} g_out_j.
#include "stdlib/kernels/kernel_support.hpp"

extern "C" {

void pvi_cumulative_sum(int64_t n, const double* x, double* out) {
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) out[i] = s += x[i];
}

void pvi_cumulative_sum_grad(int64_t n, const double*, const double*, const double* g_out, double* g_x) {
  double s = 0.0;
  for (int64_t i = n; i-- > 0;) g_x[i] += s += g_out[i];
}

}  // extern "C"
