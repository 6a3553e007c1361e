// log1p: element-wise value and gradient. log(1 + x); d/dx = 1/(1 + x).
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_log1p(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::log1p(x[i]);
}

extern "C" void pvi_log1p_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] / (1.0 + x[i]);
}
