// tanh: element-wise value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" void pvi_tanh(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::tanh(x[i]);
}

// d/dx = 1 - tanh(x)^2 = 4 e/(1 + e)^2 with e = exp(-2|x|): 1 - out^2 would lose the relative
// accuracy for large |x|, where out rounds to +-1.
extern "C" void pvi_tanh_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) {
    double e = std::exp(-2.0 * std::fabs(x[i]));
    double d = 1.0 + e;
    g_x[i] += g_out[i] * (4.0 * e / (d * d));
  }
}
