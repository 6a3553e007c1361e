// square: element-wise value and gradient. x^2; d/dx = 2x.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_square(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] * x[i];
}

extern "C" void pvi_square_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += 2.0 * g_out[i] * x[i];
}
