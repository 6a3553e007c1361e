// inv_logit: element-wise value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

// 1/(1 + exp(-x)), never overflowing, with the small tail exp(x)/(1 + exp(x)) for x < 0.
extern "C" void pvi_inv_logit(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = invLogit(x[i]);
}

// d/dx = inv_logit(x) inv_logit(-x) = e/(1 + e)^2 with e = exp(-|x|): out (1 - out) would lose
// all relative accuracy for large x, where out rounds to 1.
extern "C" void pvi_inv_logit_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out,
                                   double* g_x) {
  for (int64_t i = 0; i < n; ++i) {
    double e = std::exp(-std::fabs(x[i]));
    double d = 1.0 + e;
    g_x[i] += g_out[i] * (e / (d * d));
  }
}
