#pragma once
// Shared by the densities of correlation and covariance matrices (lkj_corr_cholesky.cpp,
// lkj_corr.cpp, wishart.cpp, inv_wishart.cpp): the LKJ normalising constant, the multivariate
// log-Gamma function, and a symmetric positive-definite matrix's Cholesky factor, log determinant
// and inverse.
#include <cmath>
#include <cstdint>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/special.hpp"

namespace pvi::kern {

// log c_K(eta) of the LKJ density c_K(eta) det(Omega)^(eta - 1) (Lewandowski, Kurowicka and Joe
// 2009), with its derivative in eta in *dEta:
//   -log c_K(eta) = sum_{i=1}^{K-1} [(2 eta - 2 + K - i)(K - i) log 2 + (K - i) lbeta(b_i, b_i)],
//   b_i = eta + (K - i - 1) / 2.
inline double lkjLogConstant(int64_t k, double eta, double* dEta) {
  const double log2 = std::log(2.0);
  double c = 0.0, d = 0.0;
  for (int64_t i = 1; i < k; ++i) {
    const double m = static_cast<double>(k - i);
    const double b = eta + 0.5 * (m - 1.0);
    c -= (2.0 * eta - 2.0 + m) * m * log2 + m * lbeta(b, b);
    d -= m * (2.0 * log2 + 2.0 * digamma(b) - 2.0 * digamma(2.0 * b));
  }
  if (dEta) *dEta = d;
  return c;
}

// log Gamma_K(a) = K (K - 1) / 4 log pi + sum_{j=1}^K lgamma(a + (1 - j) / 2), and its derivative
// in a in *dA.
inline double logMultiGamma(int64_t k, double a, double* dA) {
  double v = 0.25 * static_cast<double>(k * (k - 1)) * std::log(3.14159265358979323846), d = 0.0;
  for (int64_t j = 1; j <= k; ++j) {
    const double x = a + 0.5 * static_cast<double>(1 - j);
    v += std::lgamma(x);
    d += digamma(x);
  }
  if (dA) *dA = d;
  return v;
}

// A k x k matrix (column-major) that is symmetric (within 1e-8 of its diagonal's scale, as
// multi_normal checks) and positive definite: its Cholesky factor L (lower triangle), and
// log det = 2 sum log L_ii. False when it is not such a matrix or an element is not finite.
inline bool symmetricPositiveDefinite(int64_t k, const double* A, double* L, double* logDet) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j; i < k; ++i) {
      const double a = A[i + j * k], b = A[j + i * k];
      if (!isFinite(a) || !isFinite(b)) return false;
      if (i > j && !(std::fabs(a - b) <= 1e-8 * std::sqrt(std::fabs(A[i + i * k] * A[j + j * k])))) return false;
    }
  if (!choleskyLower(k, A, L)) return false;
  double s = 0.0;
  for (int64_t i = 0; i < k; ++i) s += std::log(L[i + i * k]);
  *logDet = 2.0 * s;
  return true;
}

// inv = A^-1 from A's Cholesky factor L (k x k, all of inv written).
inline void inverseFromCholesky(int64_t k, const double* L, double* inv) {
  for (int64_t j = 0; j < k; ++j) {
    double* col = inv + j * k;
    for (int64_t i = 0; i < k; ++i) col[i] = i == j ? 1.0 : 0.0;
    forwardSolve(k, L, col);
    backSolveTransposed(k, L, col);
  }
}

// out = M B M (k x k; M symmetric): the S^-1 W S^-1 and W^-1 S W^-1 of the Wishart gradients.
inline void sandwich(int64_t k, const double* M, const double* B, double* out) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) {
      double s = 0.0;
      for (int64_t a = 0; a < k; ++a)
        for (int64_t b = 0; b < k; ++b) s += M[i + a * k] * B[a + b * k] * M[b + j * k];
      out[i + j * k] = s;
    }
}

// tr(A B) of two k x k matrices.
inline double traceOfProduct(int64_t k, const double* A, const double* B) {
  double t = 0.0;
  for (int64_t i = 0; i < k; ++i)
    for (int64_t l = 0; l < k; ++l) t += A[i + l * k] * B[l + i * k];
  return t;
}

// The arguments of wishart and inv_wishart (kk = K^2 elements of W and of S): K, and the Cholesky
// factors (into LW and LS, kk doubles each) and log determinants of W and S. False when kk is not
// a square, nu is not finite and above K - 1, or W or S is not symmetric positive definite.
struct WishartArguments {
  int64_t k = 0;
  double logDetW = 0.0, logDetS = 0.0;
};
inline bool wishartArguments(int64_t kk, const double* W, double nu, const double* S, double* LW, double* LS,
                             WishartArguments* a) {
  a->k = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(kk))));
  if (a->k * a->k != kk || !isFinite(nu) || !(nu > static_cast<double>(a->k) - 1.0)) return false;
  return symmetricPositiveDefinite(a->k, W, LW, &a->logDetW) && symmetricPositiveDefinite(a->k, S, LS, &a->logDetS);
}

}  // namespace pvi::kern
