// pow(a, b): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

extern "C" double pvi_pow(double a, double b) { return std::pow(a, b); }

// d/da = b a^(b-1) (0 when b = 0, also at a = 0); d/db = a^b log(a) for a > 0, 0 at a = 0 when
// b > 0 (the limit), NaN for a < 0 (no real derivative).
extern "C" void pvi_pow_grad(double a, double b, double out, double g_out, double* g_a, double* g_b) {
  if (g_a) *g_a += b == 0.0 ? 0.0 : g_out * b * std::pow(a, b - 1.0);
  if (g_b) {
    double d;
    if (a > 0.0)
      d = out * std::log(a);
    else if (a == 0.0 && b > 0.0)
      d = 0.0;
    else
      d = NAN;
    *g_b += g_out * d;
  }
}
