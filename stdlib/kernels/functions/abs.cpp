// abs: element-wise value and gradient. |x|; d/dx = sign(x), 0 at x = 0.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_abs(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::fabs(x[i]);
}

extern "C" void pvi_abs_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] * (x[i] > 0.0 ? 1.0 : (x[i] < 0.0 ? -1.0 : 0.0));
}
