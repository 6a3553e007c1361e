// Gathers, rows, transposes and copies: value and gradient side by side.
#include "stdlib/kernels/arith/arith.h"

extern "C" {

int64_t pvi_gather(int64_t n, const int64_t* idx, int64_t len, const double* base, double* out) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = idx[i];
    if (k < 1 || k > len) return i + 1;
    out[i] = base[k - 1];
  }
  return 0;
}
void pvi_gather_grad(int64_t n, const int64_t* idx, const double* g_out, double* g_base) {
  for (int64_t i = 0; i < n; ++i) g_base[idx[i] - 1] += g_out[i];
}

void pvi_row(int64_t r, int64_t c, int64_t i, const double* A, double* out) {
  for (int64_t j = 0; j < c; ++j) out[j] = A[(i - 1) + j * r];
}
void pvi_row_grad(int64_t r, int64_t c, int64_t i, const double* g_out, double* g_A) {
  for (int64_t j = 0; j < c; ++j) g_A[(i - 1) + j * r] += g_out[j];
}

void pvi_transpose(int64_t r, int64_t c, const double* A, double* out) {
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < r; ++i) out[j + i * c] = A[i + j * r];
}
void pvi_transpose_grad(int64_t r, int64_t c, const double* g_out, double* g_A) {
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < r; ++i) g_A[i + j * r] += g_out[j + i * c];
}

void pvi_copy(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i];
}
void pvi_copy_grad(int64_t n, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out[i];
}

}  // extern "C"
