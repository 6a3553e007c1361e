// exp: element-wise value and gradient. exp(x); d/dx = exp(x) = out.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_exp(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::exp(x[i]);
}

extern "C" void pvi_exp_grad(int64_t n, const double* /*x*/, const double* out, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] * out[i];
}
