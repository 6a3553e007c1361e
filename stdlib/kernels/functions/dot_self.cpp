// dot_self(x) = sum x_i^2: value (the dot product of x with itself) and gradient (2 x_i).
#include "stdlib/kernels/kernel_support.hpp"
#include "stdlib/kernels/kernels.h"

extern "C" double pvi_dot_self(int64_t n, const double* x) { return pvi_dot(n, x, x); }

extern "C" void pvi_dot_self_grad(int64_t n, const double* x, double /*out*/, double g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += 2.0 * g_out * x[i];
}
