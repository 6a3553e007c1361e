// log10: element-wise value and gradient. d/dx log10(x) = 1 / (x log 10).
#include <cmath>
#include <numbers>

#include "stdlib/kernels/kernel_support.hpp"

extern "C" void pvi_log10(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::log10(x[i]);
}

extern "C" void pvi_log10_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] / (x[i] * std::numbers::ln10);
}
