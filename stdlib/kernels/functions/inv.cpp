// inv: element-wise value and gradient. 1/x; d/dx = -1/x^2 = -out^2.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_inv(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = 1.0 / x[i];
}

extern "C" void pvi_inv_grad(int64_t n, const double* /*x*/, const double* out, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += -g_out[i] * out[i] * out[i];
}
