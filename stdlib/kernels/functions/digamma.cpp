// digamma: element-wise value and gradient. digamma(x) (Boost.Math; NaN at the poles); d/dx = trigamma(x).
#include <cmath>

#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" void pvi_digamma(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = digamma(x[i]);
}

extern "C" void pvi_digamma_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] * trigamma(x[i]);
}
