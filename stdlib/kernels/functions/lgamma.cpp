// lgamma: element-wise value and gradient. log|Gamma(x)|; d/dx = digamma(x).
#include <cmath>

#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" void pvi_lgamma(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = lgam(x[i]);
}

extern "C" void pvi_lgamma_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] * digamma(x[i]);
}
