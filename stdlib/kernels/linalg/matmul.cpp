// matmul: out[r x c] = A[r x k] B[k x c], all column-major: value and gradient.
// `out` and the gradients must not alias the inputs.
#include "stdlib/kernels/kernel_support.hpp"

// out(:, j) = sum_l B(l, j) A(:, l): axpys down contiguous columns of A and out (the j-l-i order).
extern "C" void pvi_matmul(int64_t r, int64_t k, int64_t c, const double* A, const double* B, double* out) {
  for (int64_t j = 0; j < c; ++j) {
    double* __restrict__ oj = out + j * r;
    for (int64_t i = 0; i < r; ++i) oj[i] = 0.0;
    for (int64_t l = 0; l < k; ++l) {
      const double* __restrict__ al = A + l * r;
      const double blj = B[l + j * k];
      for (int64_t i = 0; i < r; ++i) oj[i] += blj * al[i];
    }
  }
}

// g_A += g_out B^T: g_A(:, l) += B(l, j) g_out(:, j) (axpys);
// g_B += A^T g_out: g_B(l, j) += A(:, l) . g_out(:, j) (dots of contiguous columns).
extern "C" void pvi_matmul_grad(int64_t r, int64_t k, int64_t c, const double* A, const double* B,
                                const double* g_out, double* g_A, double* g_B) {
  for (int64_t j = 0; j < c; ++j) {
    const double* __restrict__ gj = g_out + j * r;
    for (int64_t l = 0; l < k; ++l) {
      const double* __restrict__ al = A + l * r;
      if (g_A) {
        double* __restrict__ gal = g_A + l * r;
        const double blj = B[l + j * k];
        for (int64_t i = 0; i < r; ++i) gal[i] += blj * gj[i];
      }
      if (g_B) g_B[l + j * k] += pvi_dot(r, al, gj);
    }
  }
}
