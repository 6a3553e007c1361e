// logit: element-wise value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

// log(x / (1 - x)) evaluated as log(x) - log1p(-x): accurate near both ends of (0, 1).
extern "C" void pvi_logit(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::log(x[i]) - std::log1p(-x[i]);
}

// d/dx = 1/(x (1 - x)).
extern "C" void pvi_logit_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out,
                               double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i] / (x[i] * (1.0 - x[i]));
}
