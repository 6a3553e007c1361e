// log1m_inv_logit: element-wise value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

// log(1 - inv_logit(x)) = log(inv_logit(-x)) = -softplus(x).
extern "C" void pvi_log1m_inv_logit(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = -softplus(x[i]);
}

// d/dx = -inv_logit(x).
extern "C" void pvi_log1m_inv_logit_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out,
                                         double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] -= g_out[i] * invLogit(x[i]);
}
