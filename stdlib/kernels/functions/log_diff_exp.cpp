// log_diff_exp(a, b) = log(exp(a) - exp(b)) for b <= a: value and gradient, as
// a + log1m_exp(b - a) (no overflow, no cancellation); -inf when a = b, NaN when b > a.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_log_diff_exp(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || b > a) return NAN;
  if (b == -INFINITY) return a;
  if (a == b) return -INFINITY;
  const double d = b - a;
  return a + (d > -kLog2 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

// With e = expm1(a - b): d/da = 1 + 1/e = exp(a) / (exp(a) - exp(b)), d/db = -1/e.
extern "C" void pvi_log_diff_exp_grad(double a, double b, double /*out*/, double g_out, double* g_a, double* g_b) {
  const double e = std::expm1(a - b);
  if (g_a) *g_a += g_out * (1.0 + 1.0 / e);
  if (g_b) *g_b -= g_out / e;
}
