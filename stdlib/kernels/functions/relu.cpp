// relu: element-wise value and gradient. max(x, 0); d/dx = 1 for x > 0, else 0 (also at 0). NaN propagates.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_relu(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0 ? x[i] : (x[i] <= 0.0 ? 0.0 : x[i]);
}

extern "C" void pvi_relu_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += (x[i] > 0.0 ? g_out[i] : 0.0);
}
