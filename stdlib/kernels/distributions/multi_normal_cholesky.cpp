// multi_normal_cholesky(y | mu, L), covariance L L^T with L lower triangular k x k (column-major),
// over n variates: value and gradient. y and mu are each one k-vector (stride 0) or n of them side
// by side (stride k), as an array of vectors is laid out; the sum over the n is the log density.
#include <cmath>

#include "stdlib/kernels/distributions/multi_normal_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_multi_normal_cholesky_lpdf(int64_t n, int64_t k, const double* y, int64_t s_y, const double* mu,
                                                 int64_t s_mu, const double* L) {
  return pvi_multi_normal_cholesky_lpdf_grad(0.0, n, k, y, s_y, mu, s_mu, L, nullptr, nullptr, nullptr);
}

// Only the lower triangle of L is read (the strict upper triangle may hold anything) and only the
// lower triangle of g_L is written. The diagonal must be positive and the lower triangle finite,
// else -INFINITY. With r_m = y_m - mu_m, z_m = L^{-1} r_m, a_m = L^{-T} z_m:
//   log p = sum_m (-k/2 log(2 pi) - sum_i log L_ii - |z_m|^2 / 2),
//   d/dy_m = -a_m,  d/dmu_m = a_m,  d/dL_ij = sum_m a_m,i z_m,j - n [i = j] / L_ii   (i >= j).
extern "C" double pvi_multi_normal_cholesky_lpdf_grad(double adj, int64_t n, int64_t k, const double* y, int64_t s_y,
                                                      const double* mu, int64_t s_mu, const double* L, double* g_y,
                                                      double* g_mu, double* g_L) {
  if (k <= 0 || n <= 0) return 0.0;
  double log_det_half = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    if (!positiveFinite(L[j + j * k])) return -INFINITY;
    for (int64_t i = j + 1; i < k; ++i)
      if (!isFinite(L[i + j * k])) return -INFINITY;
    log_det_half += std::log(L[j + j * k]);
  }
  if (!mvnVariatesFinite(n, k, y, s_y, mu, s_mu)) return -INFINITY;
  Scratch buf(2 * static_cast<std::size_t>(k));
  double* z = buf.data();
  double* a = z + k;
  const double nd = static_cast<double>(n);
  if (g_L)
    for (int64_t j = 0; j < k; ++j) g_L[j + j * k] -= nd * adj / L[j + j * k];
  const double q = mvnQuadraticForms(n, k, L, y, s_y, mu, s_mu, g_y || g_mu || g_L, adj, g_y, g_mu, z, a,
                                     [&](const double* zm, const double* am) {
                                       if (!g_L) return;
                                       for (int64_t j = 0; j < k; ++j) {
                                         double* __restrict__ gj = g_L + j * k;
                                         const double f = adj * zm[j];
                                         for (int64_t i = j; i < k; ++i) gj[i] += f * am[i];
                                       }
                                     });
  return nd * (-0.5 * static_cast<double>(k) * kLog2Pi - log_det_half) - 0.5 * q;
}
