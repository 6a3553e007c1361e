// log_softmax(x)_i = x_i - log_sum_exp(x): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

extern "C" void pvi_log_softmax(int64_t n, const double* x, double* out) {
  double lse = pvi_log_sum_exp(n, x);
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] - lse;
}

// g_x[i] += g_out_i - softmax(x)_i sum_j g_out_j, with softmax(x)_i = exp(out_i).
extern "C" void pvi_log_softmax_grad(int64_t n, const double* /*x*/, const double* out, const double* g_out,
                                     double* g_x) {
  double G = 0.0;
  for (int64_t j = 0; j < n; ++j) G += g_out[j];
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] - std::exp(out[i]) * G;
}
