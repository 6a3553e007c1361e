// log_sum_exp(a, b) = log(exp(a) + exp(b)): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

// max(a, b) + log1p(exp(-|a - b|)); -INFINITY if both are -INFINITY, +INFINITY if either is.
extern "C" double pvi_log_sum_exp2(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  double m = a > b ? a : b;
  if (m == -INFINITY || m == INFINITY) return m;
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

// d/da = exp(a - out) = inv_logit(a - b), d/db = inv_logit(b - a); 1/2 each when a = b (also both
// infinite).
extern "C" void pvi_log_sum_exp2_grad(double a, double b, double /*out*/, double g_out, double* g_a, double* g_b) {
  double wa = a == b ? 0.5 : invLogit(a - b);
  double wb = a == b ? 0.5 : invLogit(b - a);
  if (g_a) *g_a += g_out * wa;
  if (g_b) *g_b += g_out * wb;
}
