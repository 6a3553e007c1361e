// expm1: element-wise value and gradient. exp(x) - 1; d/dx = exp(x), recomputed: out + 1 would
// lose the relative accuracy of exp(x) for x << 0.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_expm1(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::expm1(x[i]);
}

extern "C" void pvi_expm1_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] * std::exp(x[i]);
}
