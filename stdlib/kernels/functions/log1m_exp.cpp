// log1m_exp: element-wise value and gradient. log(1 - exp(x)) for x < 0, computed as
// log(-expm1(x)) near 0 and log1p(-exp(x)) below -log 2 (Maechler 2012); -inf at 0, NaN above.
// d/dx = -exp(x) / (1 - exp(x)) = -1 / expm1(-x).
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

namespace {
double log1mExp(double x) {
  if (!(x <= 0.0)) return NAN;
  return x > -kLog2 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
}
}  // namespace

extern "C" void pvi_log1m_exp(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = log1mExp(x[i]);
}

extern "C" void pvi_log1m_exp_grad(int64_t n, const double* x, const double* /*out*/, const double* g_out,
                                   double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += -g_out[i] / std::expm1(-x[i]);
}
