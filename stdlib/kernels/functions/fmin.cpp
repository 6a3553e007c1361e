// fmin(a, b): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

// As std::fmin: a NaN argument is ignored.
extern "C" double pvi_fmin(double a, double b) { return std::fmin(a, b); }

// The gradient goes to the selected argument; at a tie it is split 1/2, 1/2.
extern "C" void pvi_fmin_grad(double a, double b, double /*out*/, double g_out, double* g_a, double* g_b) {
  double wa;
  if (std::isnan(b) || a < b)
    wa = 1.0;
  else if (std::isnan(a) || b < a)
    wa = 0.0;
  else
    wa = 0.5;
  if (g_a) *g_a += wa * g_out;
  if (g_b) *g_b += (1.0 - wa) * g_out;
}
