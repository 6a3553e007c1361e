// sqrt: element-wise value and gradient. sqrt(x); d/dx = 1/(2 sqrt(x)) = 0.5/out.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_sqrt(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::sqrt(x[i]);
}

extern "C" void pvi_sqrt_grad(int64_t n, const double* /*x*/, const double* out, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] * 0.5 / out[i];
}
