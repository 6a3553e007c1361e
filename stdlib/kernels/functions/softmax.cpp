// softmax(x)_i = exp(x_i) / sum_j exp(x_j): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

// Shifted by the maximum, so no exp overflows.
extern "C" void pvi_softmax(int64_t n, const double* x, double* out) {
  if (n <= 0) return;
  double m = x[0];
  for (int64_t i = 1; i < n; ++i) m = x[i] > m ? x[i] : m;
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = std::exp(x[i] - m);
    s += out[i];
  }
  double inv = 1.0 / s;
  for (int64_t i = 0; i < n; ++i) out[i] *= inv;
}

// g_x += J^T g_out with J = diag(out) - out out^T: g_x[i] += out_i (g_out_i - sum_j g_out_j out_j).
extern "C" void pvi_softmax_grad(int64_t n, const double* /*x*/, const double* out, const double* g_out,
                                 double* g_x) {
  double d = 0.0;
  for (int64_t j = 0; j < n; ++j) d += g_out[j] * out[j];
  for (int64_t i = 0; i < n; ++i) g_x[i] += out[i] * (g_out[i] - d);
}
