// matvec: out[r] = A[r x c] x[c] (A column-major): value and gradient.
// `out` and the gradients must not alias the inputs.
#include "stdlib/kernels/kernel_support.hpp"
#include "stdlib/kernels/simd/simd_loops.hpp"

// Column-major: out = sum_j x_j A(:, j), contiguous axpys (simd_loops.cpp).
extern "C" void pvi_matvec(int64_t r, int64_t c, const double* A, const double* x, double* out) {
  pvi::kern::simdLoops().matvec(r, c, A, x, out);
}

// g_A += g_out x^T (g_A(:, j) += x_j g_out: an axpy per column);
// g_x += A^T g_out (g_x[j] += A(:, j) . g_out: a dot per column).
extern "C" void pvi_matvec_grad(int64_t r, int64_t c, const double* A, const double* x, const double* g_out,
                                double* g_A, double* g_x) {
  const double* __restrict__ go = g_out;
  if (g_A)
    for (int64_t j = 0; j < c; ++j) {
      double* __restrict__ gaj = g_A + j * r;
      const double xj = x[j];
      for (int64_t i = 0; i < r; ++i) gaj[i] += xj * go[i];
    }
  if (g_x) pvi::kern::simdLoops().matvecTransposeAdd(r, c, A, go, g_x);
}
