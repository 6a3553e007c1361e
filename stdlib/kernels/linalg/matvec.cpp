// matvec: out[r] = A[r x c] x[c] (A column-major): value and gradient.
// `out` and the gradients must not alias the inputs.
#include "stdlib/kernels/kernel_support.hpp"

// Column-major: out = sum_j x_j A(:, j), one contiguous axpy per column.
extern "C" void pvi_matvec(int64_t r, int64_t c, const double* A, const double* x, double* out) {
  double* __restrict__ o = out;
  for (int64_t i = 0; i < r; ++i) o[i] = 0.0;
  for (int64_t j = 0; j < c; ++j) {
    const double* __restrict__ aj = A + j * r;
    const double xj = x[j];
    for (int64_t i = 0; i < r; ++i) o[i] += xj * aj[i];
  }
}

// g_A += g_out x^T (g_A(:, j) += x_j g_out: an axpy per column);
// g_x += A^T g_out (g_x[j] += A(:, j) . g_out: a dot per column).
extern "C" void pvi_matvec_grad(int64_t r, int64_t c, const double* A, const double* x, const double* g_out,
                                double* g_A, double* g_x) {
  const double* __restrict__ go = g_out;
  for (int64_t j = 0; j < c; ++j) {
    const double* __restrict__ aj = A + j * r;
    if (g_A) {
      double* __restrict__ gaj = g_A + j * r;
      const double xj = x[j];
      for (int64_t i = 0; i < r; ++i) gaj[i] += xj * go[i];
    }
    if (g_x) g_x[j] += pvi_dot(r, aj, go);
  }
}
