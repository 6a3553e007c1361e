// Constrained matrices and unit vectors as parameters, with Stan's transforms and log-Jacobians
// (Stan's reference manual, "Constraint transforms"). Matrices are column-major and contiguous, m
// of them in one call; n is the number of constrained outputs (the inverses: of unconstrained
// outputs), the order K (or M and N) passed as reals as for the other transforms.
//
// cholesky_factor_cov[M, N] (M >= N): N (N + 1) / 2 + (M - N) N values fill the lower triangle
//   row by row, L[i,j] = y for j < i, L[i,i] = exp(y); log|J| = sum of the diagonal's y.
// cov_matrix[K]: Sigma = L L' with L a cholesky_factor_cov[K]; log|J| = K log 2 +
//   sum_k (K - k + 1) y_kk (0-based k): the Jacobian of L L' is 2^K prod_k L_kk^(K - k), times
//   prod_k L_kk for L_kk = exp(y_kk).
// corr_matrix[K]: Omega = L L' with L a cholesky_factor_corr[K] (cholesky_corr.hpp); log|J| is
//   that of L plus sum_k (K - 1 - k) log L_kk (0-based k), the Jacobian of Omega(L) over the
//   elements below the diagonal (as in lkj_corr_cholesky.cpp).
// unit_vector[K]: x = y / |y|, K values; the "Jacobian" term -|y|^2 / 2 gives |y| a chi
//   distribution with K degrees of freedom, so y is standard normal when x is uniform on the sphere.
#include <algorithm>
#include <cmath>
#include <vector>

#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/arith/cholesky_corr.hpp"
#include "stdlib/kernels/dense_support.hpp"

using namespace pvi::kern;

namespace {

int64_t sizeOf(const double* p) { return p[0] >= 1.0 ? static_cast<int64_t>(p[0]) : 0; }
// Values on and below the diagonal: P (P + 1) / 2 + (rows - P) cols with P = min(rows, cols).
int64_t covFactorCount(int64_t rows, int64_t cols) {
  const int64_t p = std::min(rows, cols);
  return p * (p + 1) / 2 + (rows - p) * cols;
}

// L (rows x cols) from y, row by row; returns the sum of the diagonal's y.
double covFactorOne(int64_t rows, int64_t cols, const double* y, double* L) {
  for (int64_t e = 0; e < rows * cols; ++e) L[e] = 0.0;
  double lj = 0.0;
  for (int64_t i = 0, v = 0; i < rows; ++i)
    for (int64_t j = 0; j <= i && j < cols; ++j, ++v) {
      if (j == i) {
        L[i + j * rows] = std::exp(y[v]);
        lj += y[v];
      } else {
        L[i + j * rows] = y[v];
      }
    }
  return lj;
}

// g_y += the adjoint of y, given the adjoint g_L of L and g_lj times the log-Jacobian's weight on
// each diagonal y_ii: 1 for a cholesky_factor_cov, K - i + 1 (0-based i) for a cov_matrix.
void covFactorOneGrad(int64_t rows, int64_t cols, const double* y, const double* g_L, bool covMatrixWeights,
                      double g_lj, double* g_y) {
  for (int64_t i = 0, v = 0; i < rows; ++i)
    for (int64_t j = 0; j <= i && j < cols; ++j, ++v) {
      const double weight = covMatrixWeights ? static_cast<double>(rows - i + 1) : 1.0;
      g_y[v] += j == i ? g_L[i + j * rows] * std::exp(y[v]) + weight * g_lj : g_L[i + j * rows];
    }
}

// y from L: 0, or 1 + the index of the first element that is not that of such a factor (non-zero
// above the diagonal, a diagonal element not positive, an element not finite).
int64_t covFactorOneInv(int64_t rows, int64_t cols, const double* L, double* y) {
  for (int64_t i = 0, v = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const double x = L[i + j * rows];
      if (!std::isfinite(x) || (j > i && x != 0.0) || (j == i && !(x > 0.0))) return i + j * rows + 1;
      if (j <= i) y[v++] = j == i ? std::log(x) : x;
    }
  return 0;
}

// S = L L' (k x k, L lower triangular).
void selfOuter(int64_t k, const double* L, double* S) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j; i < k; ++i) {
      double s = 0.0;
      for (int64_t l = 0; l <= j; ++l) s += L[i + l * k] * L[j + l * k];
      S[i + j * k] = S[j + i * k] = s;
    }
}

// g_L = (G + G') L on and below the diagonal (zero above): the adjoint of L in S = L L'.
void selfOuterGrad(int64_t k, const double* L, const double* G, double* g_L) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      if (i >= j)
        for (int64_t l = j; l < k; ++l) s += (G[i + l * k] + G[l + i * k]) * L[l + j * k];
      g_L[i + j * k] = s;
    }
}

// 0 when S (k x k) is symmetric within 1e-8 of its diagonal's scale, else 1 + the index of the
// first element that is not.
int64_t symmetryCheck(int64_t k, const double* S) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j + 1; i < k; ++i) {
      const double a = S[i + j * k], b = S[j + i * k];
      if (!std::isfinite(a) || !std::isfinite(b) ||
          !(std::fabs(a - b) <= 1e-8 * std::sqrt(std::fabs(S[i + i * k] * S[j + j * k]))))
        return j + i * k + 1;
    }
  return 0;
}

}  // namespace

extern "C" {

double pvi_tf_cholesky_factor_cov(int64_t n, const double* u, const double* mp, int64_t, const double* np, int64_t,
                                  double* out) {
  const int64_t rows = sizeOf(mp), cols = sizeOf(np);
  if (rows * cols == 0) return 0.0;
  double lj = 0.0;
  for (int64_t m = 0; m < n / (rows * cols); ++m)
    lj += covFactorOne(rows, cols, u + m * covFactorCount(rows, cols), out + m * rows * cols);
  // Fewer rows than columns (sizes from data; the checker refuses constant ones): no such factor.
  return cols > rows ? -INFINITY : lj;
}

void pvi_tf_cholesky_factor_cov_grad(int64_t n, const double* u, const double* mp, int64_t, const double* np, int64_t,
                                     const double*, const double* g_out, double g_lj, double* g_u, double*, double*) {
  const int64_t rows = sizeOf(mp), cols = sizeOf(np);
  if (rows * cols == 0) return;
  for (int64_t m = 0; m < n / (rows * cols); ++m) {
    const int64_t per = covFactorCount(rows, cols);
    covFactorOneGrad(rows, cols, u + m * per, g_out + m * rows * cols, false, g_lj, g_u + m * per);
  }
}

int64_t pvi_tf_cholesky_factor_cov_inv(int64_t n, const double* x, const double* mp, int64_t, const double* np,
                                       int64_t, double* u) {
  const int64_t rows = sizeOf(mp), cols = sizeOf(np);
  if (cols > rows) return 1;
  const int64_t per = covFactorCount(rows, cols);
  for (int64_t m = 0; per > 0 && m < n / per; ++m)
    if (const int64_t bad = covFactorOneInv(rows, cols, x + m * rows * cols, u + m * per)) return m * rows * cols + bad;
  return 0;
}

double pvi_tf_cov_matrix(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = sizeOf(kp);
  if (k == 0) return 0.0;
  Scratch L(static_cast<size_t>(k * k));
  double lj = 0.0;
  for (int64_t m = 0; m < n / (k * k); ++m) {
    const double* y = u + m * covFactorCount(k, k);
    covFactorOne(k, k, y, L.data());
    selfOuter(k, L.data(), out + m * k * k);
    lj += static_cast<double>(k) * std::log(2.0);
    for (int64_t d = 0; d < k; ++d) lj += static_cast<double>(k - d + 1) * y[d * (d + 3) / 2];  // y of L_dd
  }
  return lj;
}

void pvi_tf_cov_matrix_grad(int64_t n, const double* u, const double* kp, int64_t, const double*, const double* g_out,
                            double g_lj, double* g_u, double*) {
  const int64_t k = sizeOf(kp);
  if (k == 0) return;
  Scratch buf(static_cast<size_t>(2 * k * k));
  double* L = buf.data();
  double* g_L = L + k * k;
  for (int64_t m = 0; m < n / (k * k); ++m) {
    const double* y = u + m * covFactorCount(k, k);
    covFactorOne(k, k, y, L);
    selfOuterGrad(k, L, g_out + m * k * k, g_L);
    covFactorOneGrad(k, k, y, g_L, true, g_lj, g_u + m * covFactorCount(k, k));
  }
}

// A covariance matrix is symmetric (within 1e-8 of its diagonal's scale, as multi_normal checks)
// and positive definite; returns 0, or 1 + the index of the first element found wrong (the first
// element of a matrix that is not positive definite).
int64_t pvi_tf_cov_matrix_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = sizeOf(kp);
  const int64_t per = covFactorCount(k, k);
  Scratch L(static_cast<size_t>(k * k));
  for (int64_t m = 0; per > 0 && m < n / per; ++m) {
    const double* S = x + m * k * k;
    if (const int64_t bad = symmetryCheck(k, S)) return m * k * k + bad;
    if (!choleskyLower(k, S, L.data())) return m * k * k + 1;
    for (int64_t j = 1; j < k; ++j)
      for (int64_t i = 0; i < j; ++i) L.data()[i + j * k] = 0.0;
    covFactorOneInv(k, k, L.data(), u + m * per);
  }
  return 0;
}

double pvi_tf_corr_matrix(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = sizeOf(kp);
  if (k == 0) return 0.0;
  Scratch L(static_cast<size_t>(k * k));
  double lj = 0.0;
  for (int64_t m = 0; m < n / (k * k); ++m) {
    lj += choleskyCorrOne(k, u + m * belowDiagonalCount(k), L.data());
    selfOuter(k, L.data(), out + m * k * k);
    for (int64_t d = 1; d + 1 < k; ++d) lj += static_cast<double>(k - 1 - d) * std::log(L.data()[d + d * k]);
  }
  return lj;
}

void pvi_tf_corr_matrix_grad(int64_t n, const double* u, const double* kp, int64_t, const double*, const double* g_out,
                             double g_lj, double* g_u, double*) {
  const int64_t k = sizeOf(kp);
  if (k == 0) return;
  Scratch buf(static_cast<size_t>(2 * k * k));
  double* L = buf.data();
  double* g_L = L + k * k;
  std::vector<double> sums;
  for (int64_t m = 0; m < n / (k * k); ++m) {
    const double* y = u + m * belowDiagonalCount(k);
    choleskyCorrOne(k, y, L);
    selfOuterGrad(k, L, g_out + m * k * k, g_L);
    for (int64_t d = 1; d + 1 < k; ++d)
      if (L[d + d * k] > 0.0) g_L[d + d * k] += static_cast<double>(k - 1 - d) * g_lj / L[d + d * k];
    choleskyCorrOneGrad(k, y, g_L, g_lj, g_u + m * belowDiagonalCount(k), sums);
  }
}

// A correlation matrix is symmetric, has a unit diagonal (both within 1e-8) and is positive
// definite; returns 0, or 1 + the index of the first element found wrong.
int64_t pvi_tf_corr_matrix_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = sizeOf(kp);
  const int64_t per = belowDiagonalCount(k);
  Scratch L(static_cast<size_t>(k * k));
  for (int64_t m = 0; per > 0 && m < n / per; ++m) {
    const double* S = x + m * k * k;
    for (int64_t d = 0; d < k; ++d)
      if (!(std::fabs(S[d + d * k] - 1.0) <= 1e-8)) return m * k * k + d + d * k + 1;
    if (const int64_t bad = symmetryCheck(k, S)) return m * k * k + bad;
    if (!choleskyLower(k, S, L.data())) return m * k * k + 1;
    for (int64_t j = 1; j < k; ++j)
      for (int64_t i = 0; i < j; ++i) L.data()[i + j * k] = 0.0;
    if (const int64_t bad = choleskyCorrOneInv(k, L.data(), u + m * per)) return m * k * k + bad;
  }
  return 0;
}

double pvi_tf_unit_vector(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = sizeOf(kp);
  double lj = 0.0;
  for (int64_t m = 0; k > 0 && m < n / k; ++m) {
    const double* y = u + m * k;
    double r2 = 0.0;
    for (int64_t i = 0; i < k; ++i) r2 += y[i] * y[i];
    const double r = std::sqrt(r2);
    // y = 0 has no direction: a point of measure zero, given density zero.
    for (int64_t i = 0; i < k; ++i) out[m * k + i] = r > 0.0 ? y[i] / r : 0.0;
    lj += r > 0.0 ? -0.5 * r2 : -INFINITY;
  }
  return lj;
}

void pvi_tf_unit_vector_grad(int64_t n, const double* u, const double* kp, int64_t, const double* out,
                             const double* g_out, double g_lj, double* g_u, double*) {
  const int64_t k = sizeOf(kp);
  for (int64_t m = 0; k > 0 && m < n / k; ++m) {
    const double* y = u + m * k;
    const double* x = out + m * k;
    const double* g = g_out + m * k;
    double r2 = 0.0, xg = 0.0;
    for (int64_t i = 0; i < k; ++i) {
      r2 += y[i] * y[i];
      xg += x[i] * g[i];
    }
    const double r = std::sqrt(r2);
    if (!(r > 0.0)) continue;
    for (int64_t i = 0; i < k; ++i) g_u[m * k + i] += (g[i] - x[i] * xg) / r - g_lj * y[i];
  }
}

// A unit vector has finite elements whose squares sum to 1 within 1e-8; returns 0, or 1 + the
// index of the first element of the first vector that is not one.
int64_t pvi_tf_unit_vector_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = sizeOf(kp);
  for (int64_t m = 0; k > 0 && m < n / k; ++m) {
    double s = 0.0;
    for (int64_t i = 0; i < k; ++i) s += x[m * k + i] * x[m * k + i];
    if (!(std::fabs(s - 1.0) <= 1e-8)) return m * k + 1;
    for (int64_t i = 0; i < k; ++i) u[m * k + i] = x[m * k + i];
  }
  return 0;
}

}  // extern "C"
