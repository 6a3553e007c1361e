// dot(a, b): value and gradient.
#include "stdlib/kernels/kernel_support.hpp"
#include "stdlib/kernels/simd/simd_loops.hpp"

// Partial sums in the vector lanes (simd_loops.cpp).
extern "C" double pvi_dot(int64_t n, const double* a, const double* b) { return pvi::kern::simdLoops().dot(n, a, b); }

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
