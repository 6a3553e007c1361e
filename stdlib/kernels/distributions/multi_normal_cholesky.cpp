// multi_normal_cholesky(y | mu, L), covariance L L^T with L lower triangular k x k (column-major):
// value and gradient.
#include <cmath>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_multi_normal_cholesky_lpdf(int64_t k, const double* y, const double* mu, const double* L) {
  return pvi_multi_normal_cholesky_lpdf_grad(0.0, k, y, mu, L, nullptr, nullptr, nullptr);
}

// Only the lower triangle of L is read (the strict upper triangle may hold anything) and only the
// lower triangle of g_L is written. The diagonal must be positive and the lower triangle finite,
// else -INFINITY. With r = y - mu, z = L^{-1} r, a = L^{-T} z:
//   log p = -k/2 log(2 pi) - sum_i log L_ii - |z|^2 / 2,
//   d/dy = -a,  d/dmu = a,  d/dL_ij = a_i z_j - [i = j] / L_ii   (i >= j).
extern "C" double pvi_multi_normal_cholesky_lpdf_grad(double adj, int64_t k, const double* y, const double* mu,
                                                      const double* L, double* g_y, double* g_mu, double* g_L) {
  if (k <= 0) return 0.0;
  double log_det_half = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    if (!isFinite(y[j]) || !isFinite(mu[j]) || !positiveFinite(L[j + j * k])) return -INFINITY;
    for (int64_t i = j + 1; i < k; ++i)
      if (!isFinite(L[i + j * k])) return -INFINITY;
    log_det_half += std::log(L[j + j * k]);
  }
  Scratch buf(2 * static_cast<std::size_t>(k));
  double* z = buf.data();
  double* a = z + k;
  for (int64_t i = 0; i < k; ++i) z[i] = y[i] - mu[i];
  forwardSolve(k, L, z);
  double q = 0.0;
  for (int64_t i = 0; i < k; ++i) q += z[i] * z[i];
  double lp = -0.5 * static_cast<double>(k) * kLog2Pi - log_det_half - 0.5 * q;
  if (!g_y && !g_mu && !g_L) return lp;
  for (int64_t i = 0; i < k; ++i) a[i] = z[i];
  backSolveTransposed(k, L, a);
  for (int64_t i = 0; i < k; ++i) {
    if (g_y) g_y[i] -= adj * a[i];
    if (g_mu) g_mu[i] += adj * a[i];
  }
  if (g_L) {
    for (int64_t j = 0; j < k; ++j) {
      double* __restrict__ gj = g_L + j * k;
      const double f = adj * z[j];
      gj[j] -= adj / L[j + j * k];
      for (int64_t i = j; i < k; ++i) gj[i] += f * a[i];
    }
  }
  return lp;
}
