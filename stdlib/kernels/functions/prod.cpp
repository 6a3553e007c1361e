// prod(x) = x_1 ... x_n (1 for none): value and gradient. The product is kept as a mantissa and a
// binary exponent (frexp), so that partial products do not underflow or overflow where the result
// is representable (prod(1e-200, 1e-200, 1e200) = 1e-200, where the running product is 0).
// d/dx_i = the product of the others: out / x_i without zeros; with one zero, only that element
// has a non-zero derivative, and with two or more none has.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

namespace {

// The product of x_i over i != skip (skip = -1: all) as m 2^e, m in [0.5, 1) (or 0, inf, NaN).
void scaledProduct(int64_t n, const double* x, int64_t skip, double& m, long& e) {
  m = 1.0;
  e = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i == skip) continue;
    int ex = 0;
    m *= std::frexp(x[i], &ex);
    e += ex;
    int em = 0;
    m = std::frexp(m, &em);  // keep m in [0.5, 1): no underflow however many factors
    e += em;
  }
}

double fromScaled(double m, long e) {
  if (!std::isfinite(m) || m == 0.0) return m;
  if (e > 4096) return std::copysign(INFINITY, m);
  if (e < -4096) return std::copysign(0.0, m);
  return std::ldexp(m, static_cast<int>(e));
}

double productExcept(int64_t n, const double* x, int64_t skip) {
  double m;
  long e;
  scaledProduct(n, x, skip, m, e);
  return fromScaled(m, e);
}

}  // namespace

extern "C" double pvi_prod(int64_t n, const double* x) { return productExcept(n, x, -1); }

extern "C" void pvi_prod_grad(int64_t n, const double* x, double /*out*/, double g_out, double* g_x) {
  int64_t zeros = 0, zeroAt = -1;
  for (int64_t i = 0; i < n; ++i)
    if (x[i] == 0.0) ++zeros, zeroAt = i;
  if (zeros >= 2) return;
  if (zeros == 1) {
    g_x[zeroAt] += g_out * productExcept(n, x, zeroAt);
    return;
  }
  // No zero: out / x_i, from the scaled product (one pass, no underflow of the quotient).
  double m;
  long e;
  scaledProduct(n, x, -1, m, e);
  for (int64_t i = 0; i < n; ++i) {
    int ex = 0;
    const double mx = std::frexp(x[i], &ex);
    g_x[i] += g_out * fromScaled(m / mx, e - ex);
  }
}
