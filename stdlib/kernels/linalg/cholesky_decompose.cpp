// cholesky_decompose(A), diag_matrix(v) and multiply_lower_tri_self_transpose(x), as element-wise-convention kernels (n = k^2 outputs,
// column-major).
//
// cholesky_decompose: L lower triangular with L L' = A, from A's lower triangle (A symmetric
// positive definite; otherwise every element of L is NaN, and the density that reads it is -inf).
// Gradient (Murray 2016, "Differentiation of the Cholesky decomposition"): with dL = L Phi(L^-1 dA
// L^-T), Phi the lower triangle with its diagonal halved,
//   Abar = L^-T Phi(L' Lbar) L^-1  (Lbar the adjoint of L's lower triangle),
// added symmetrised, (Abar + Abar') / 2, as the gradient over a symmetric A.
#include <algorithm>
#include <cmath>
#include <limits>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/kernels.h"

using namespace pvi::kern;

extern "C" void pvi_cholesky_decompose(int64_t n, const double* A, double* out) {
  const int64_t k = squareOrder(n);
  for (int64_t e = 0; e < n; ++e) out[e] = 0.0;
  if (k * k != n || !choleskyLower(k, A, out))
    for (int64_t e = 0; e < n; ++e) out[e] = std::numeric_limits<double>::quiet_NaN();
}

extern "C" void pvi_cholesky_decompose_grad(int64_t n, const double*, const double* out, const double* g_out,
                                            double* g_A) {
  const int64_t k = squareOrder(n);
  if (g_A == nullptr || k * k != n || !std::isfinite(out[0])) return;
  const double* L = out;
  Scratch scratch(static_cast<std::size_t>(2 * n));
  double* P = scratch.data();      // Phi(L' Lbar), then L^-T P, then the full product
  double* column = P + n;          // one row of the product, as a column
  for (int64_t j = 0; j < k; ++j)  // P = L' Lbar over the lower triangles: P(i, j) = sum_m L(m, i) Lbar(m, j)
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      if (i >= j)
        for (int64_t m = i; m < k; ++m) s += L[m + i * k] * g_out[m + j * k];
      P[i + j * k] = i == j ? 0.5 * s : s;
    }
  for (int64_t j = 0; j < k; ++j) backSolveTransposed(k, L, P + j * k);  // P <- L^-T P, column by column
  // S = P L^-1: row r of S is (L^-T row r of P')': solve each row.
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < k; ++c) column[c] = P[r + c * k];
    backSolveTransposed(k, L, column);
    for (int64_t c = 0; c < k; ++c) P[r + c * k] = column[c];
  }
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) g_A[i + j * k] += 0.5 * (P[i + j * k] + P[j + i * k]);
}

// diag_matrix(v): the k x k matrix with v on its diagonal (n = k^2; v has k elements).
extern "C" void pvi_diag_matrix(int64_t n, const double* v, double* out) {
  const int64_t k = squareOrder(n);
  for (int64_t e = 0; e < n; ++e) out[e] = 0.0;
  for (int64_t i = 0; i < k; ++i) out[i + i * k] = v[i];
}

extern "C" void pvi_diag_matrix_grad(int64_t n, const double*, const double*, const double* g_out, double* g_v) {
  if (g_v == nullptr) return;
  const int64_t k = squareOrder(n);
  for (int64_t i = 0; i < k; ++i) g_v[i] += g_out[i + i * k];
}

// multiply_lower_tri_self_transpose(x) = T T', T the lower triangle of x (diagonal included).
// Gradient: with G the adjoint of the product, Tbar = (G + G') T, kept on the lower triangle.
extern "C" void pvi_multiply_lower_tri_self_transpose(int64_t n, const double* x, double* out) {
  const int64_t k = squareOrder(n);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      for (int64_t m = 0; m <= std::min(i, j); ++m) s += x[i + m * k] * x[j + m * k];
      out[i + j * k] = s;
    }
}

extern "C" void pvi_multiply_lower_tri_self_transpose_grad(int64_t n, const double* x, const double*,
                                                           const double* g_out, double* g_x) {
  if (g_x == nullptr) return;
  const int64_t k = squareOrder(n);
  for (int64_t m = 0; m < k; ++m)  // column m of T
    for (int64_t i = m; i < k; ++i) {
      double s = 0.0;  // ((G + G') T)(i, m) = sum_j (G(i, j) + G(j, i)) T(j, m), T(j, m) = 0 for j < m
      for (int64_t j = m; j < k; ++j) s += (g_out[i + j * k] + g_out[j + i * k]) * x[j + m * k];
      g_x[i + m * k] += s;
    }
}
