// eigenvalues_sym(A) and eigenvectors_sym(A) of a symmetric k x k matrix (column-major), as in
// Stan: the eigenvalues in ascending order, and the eigenvectors as the columns of a matrix in the
// same order (each with its element of largest magnitude positive; Stan leaves the signs to Eigen;
// this choice is continuous in A except where two elements of an eigenvector tie in magnitude).
// Element-wise-convention kernels: n is the number of outputs (k eigenvalues, or k^2 elements of
// the eigenvectors). Only A's lower triangle is read, as cholesky_decompose reads it; a matrix
// with a non-finite element there gives NaN everywhere.
//
// The decomposition is cyclic Jacobi (rotations until the off-diagonal part is below 1e-15 of
// the matrix's norm): accurate to the last digits for symmetric matrices, and it works in a
// Scratch buffer, so that a factor evaluation allocates nothing after its first (Eigen's solver
// allocates on every call).
//
// Gradients (e.g. Giles 2008, "An extended collection of matrix derivative results"), with
// A = V diag(lambda) V':
//   eigenvalues:  Abar = V diag(lambdabar) V'
//   eigenvectors: Abar = V (F o (V' Vbar)) V',  F_ij = 1 / (lambda_j - lambda_i) (i != j), F_ii = 0
// added symmetrised, (Abar + Abar') / 2, as the gradient over a symmetric A. Repeated eigenvalues
// leave the eigenvectors undetermined and their gradient infinite, as in Stan.
#include <cmath>
#include <limits>
#include <utility>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/kernels.h"

using namespace pvi::kern;

namespace {


// lambda (k) and V (k x k, columns) with A = V diag(lambda) V', ascending, signs as above; W is
// k x k scratch. False when A's lower triangle has a non-finite element.
bool decompose(int64_t k, const double* A, double* lambda, double* V, double* W) {
  double norm = 0.0;
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j; i < k; ++i) {
      const double a = A[i + j * k];
      if (!std::isfinite(a)) return false;
      W[i + j * k] = W[j + i * k] = a;
      norm += (i == j ? 1.0 : 2.0) * a * a;
    }
  for (int64_t e = 0; e < k * k; ++e) V[e] = 0.0;
  for (int64_t i = 0; i < k; ++i) V[i + i * k] = 1.0;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0;
    for (int64_t q = 1; q < k; ++q)
      for (int64_t p = 0; p < q; ++p) off += 2.0 * W[p + q * k] * W[p + q * k];
    if (!(off > 1e-30 * norm)) break;
    for (int64_t q = 1; q < k; ++q)
      for (int64_t p = 0; p < q; ++p) {
        const double apq = W[p + q * k];
        if (apq == 0.0) continue;
        // The rotation in the (p, q) plane that zeroes W_pq: W <- J' W J, V <- V J.
        const double theta = (W[q + q * k] - W[p + p * k]) / (2.0 * apq);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int64_t r = 0; r < k; ++r) {  // columns p and q
          const double wp = W[r + p * k], wq = W[r + q * k];
          W[r + p * k] = c * wp - s * wq;
          W[r + q * k] = s * wp + c * wq;
        }
        for (int64_t r = 0; r < k; ++r) {  // rows p and q
          const double wp = W[p + r * k], wq = W[q + r * k];
          W[p + r * k] = c * wp - s * wq;
          W[q + r * k] = s * wp + c * wq;
        }
        for (int64_t r = 0; r < k; ++r) {
          const double vp = V[r + p * k], vq = V[r + q * k];
          V[r + p * k] = c * vp - s * vq;
          V[r + q * k] = s * vp + c * vq;
        }
      }
  }
  for (int64_t i = 0; i < k; ++i) lambda[i] = W[i + i * k];
  for (int64_t i = 0; i < k; ++i) {  // ascending: selection sort, the columns of V with them
    int64_t best = i;
    for (int64_t j = i + 1; j < k; ++j)
      if (lambda[j] < lambda[best]) best = j;
    if (best == i) continue;
    std::swap(lambda[i], lambda[best]);
    for (int64_t r = 0; r < k; ++r) std::swap(V[r + i * k], V[r + best * k]);
  }
  for (int64_t j = 0; j < k; ++j) {
    int64_t largest = 0;
    for (int64_t r = 1; r < k; ++r)
      if (std::fabs(V[r + j * k]) > std::fabs(V[largest + j * k])) largest = r;
    if (V[largest + j * k] < 0.0)
      for (int64_t r = 0; r < k; ++r) V[r + j * k] = -V[r + j * k];
  }
  return true;
}

// g_A += (Abar + Abar') / 2 with Abar = V M V' (P is k x k scratch).
void addSymmetrised(int64_t k, const double* V, const double* M, double* P, double* g_A) {
  for (int64_t j = 0; j < k; ++j)  // P = V M
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      for (int64_t m = 0; m < k; ++m) s += V[i + m * k] * M[m + j * k];
      P[i + j * k] = s;
    }
  for (int64_t j = 0; j < k; ++j)  // Abar_ij = sum_m P_im V_jm; each entry gets half of ij and ji
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      for (int64_t m = 0; m < k; ++m) s += P[i + m * k] * V[j + m * k];
      g_A[i + j * k] += 0.5 * s;
      g_A[j + i * k] += 0.5 * s;
    }
}

void fillNaN(int64_t n, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

extern "C" void pvi_eigenvalues_sym(int64_t n, const double* A, double* out) {
  Scratch buf(static_cast<std::size_t>(2 * n * n));
  if (!decompose(n, A, out, buf.data(), buf.data() + n * n)) fillNaN(n, out);
}

extern "C" void pvi_eigenvalues_sym_grad(int64_t n, const double* A, const double*, const double* g_out,
                                         double* g_A) {
  if (g_A == nullptr) return;
  const int64_t kk = n * n;
  Scratch buf(static_cast<std::size_t>(3 * kk + n));
  double *V = buf.data(), *W = V + kk, *P = W + kk, *lambda = P + kk;
  if (!decompose(n, A, lambda, V, W)) return;
  for (int64_t e = 0; e < kk; ++e) W[e] = 0.0;  // M = diag(lambdabar)
  for (int64_t i = 0; i < n; ++i) W[i + i * n] = g_out[i];
  addSymmetrised(n, V, W, P, g_A);
}

extern "C" void pvi_eigenvectors_sym(int64_t n, const double* A, double* out) {
  const int64_t k = squareOrder(n);
  Scratch buf(static_cast<std::size_t>(n + k));
  if (k * k != n || !decompose(k, A, buf.data() + n, out, buf.data())) fillNaN(n, out);
}

extern "C" void pvi_eigenvectors_sym_grad(int64_t n, const double* A, const double*, const double* g_out,
                                          double* g_A) {
  const int64_t k = squareOrder(n);
  if (g_A == nullptr || k * k != n) return;
  Scratch buf(static_cast<std::size_t>(3 * n + k));
  double *V = buf.data(), *W = V + n, *P = W + n, *lambda = P + n;
  if (!decompose(k, A, lambda, V, W)) return;
  for (int64_t j = 0; j < k; ++j)  // M = F o (V' Vbar), into W
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      for (int64_t m = 0; m < k; ++m) s += V[m + i * k] * g_out[m + j * k];
      W[i + j * k] = i == j ? 0.0 : s / (lambda[j] - lambda[i]);
    }
  addSymmetrised(k, V, W, P, g_A);
}
