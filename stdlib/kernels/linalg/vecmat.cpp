// vecmat: out[c] = x[r]^T A[r x c] (row vector times matrix, A column-major): value and gradient.
// `out` and the gradients must not alias the inputs.
#include "stdlib/kernels/kernel_support.hpp"

// out[j] = A(:, j) . x, a contiguous dot per column.
extern "C" void pvi_vecmat(int64_t r, int64_t c, const double* x, const double* A, double* out) {
  for (int64_t j = 0; j < c; ++j) out[j] = pvi_dot(r, A + j * r, x);
}

// g_x += A g_out (an axpy per column: g_x += g_out_j A(:, j));
// g_A += x g_out^T (g_A(:, j) += g_out_j x).
extern "C" void pvi_vecmat_grad(int64_t r, int64_t c, const double* x, const double* A, const double* g_out,
                                double* g_x, double* g_A) {
  const double* __restrict__ xx = x;
  for (int64_t j = 0; j < c; ++j) {
    const double gj = g_out[j];
    if (g_x) {
      double* __restrict__ gx = g_x;
      const double* __restrict__ aj = A + j * r;
      for (int64_t i = 0; i < r; ++i) gx[i] += gj * aj[i];
    }
    if (g_A) {
      double* __restrict__ gaj = g_A + j * r;
      for (int64_t i = 0; i < r; ++i) gaj[i] += gj * xx[i];
    }
  }
}
