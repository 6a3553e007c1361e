// dot(a, b): value and gradient.
#include "stdlib/kernels/kernel_support.hpp"

// Four independent partial sums (vectorisable without reassociation flags).
extern "C" double pvi_dot(int64_t n, const double* a, const double* b) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

// g_a += g_out b, g_b += g_out a.
extern "C" void pvi_dot_grad(int64_t n, const double* a, const double* b, double g_out, double* g_a, double* g_b) {
  if (g_a) {
    double* __restrict__ ga = g_a;
    for (int64_t i = 0; i < n; ++i) ga[i] += g_out * b[i];
  }
  if (g_b) {
    double* __restrict__ gb = g_b;
    for (int64_t i = 0; i < n; ++i) gb[i] += g_out * a[i];
  }
}
