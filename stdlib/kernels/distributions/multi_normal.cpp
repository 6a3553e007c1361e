// multi_normal(y | mu, Sigma), Sigma a k x k covariance (column-major), over n variates: value and
// gradient. y and mu are each one k-vector (stride 0) or n of them side by side (stride k), as an
// array of vectors is laid out; the sum over the n is the log density, and Sigma is factored once.
#include <cmath>

#include "stdlib/kernels/distributions/multi_normal_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_multi_normal_lpdf(int64_t n, int64_t k, const double* y, int64_t s_y, const double* mu,
                                        int64_t s_mu, const double* Sigma) {
  return pvi_multi_normal_lpdf_grad(0.0, n, k, y, s_y, mu, s_mu, Sigma, nullptr, nullptr, nullptr);
}

// Sigma must be symmetric (|S_ij - S_ji| <= 1e-8 sqrt(S_ii S_jj)) and positive definite, else
// -INFINITY. With Sigma = L L^T (Cholesky of the lower triangle), and for variate m
// r_m = y_m - mu_m, z_m = L^{-1} r_m, a_m = Sigma^{-1} r_m = L^{-T} z_m:
//   log p = sum_m (-k/2 log(2 pi) - sum_i log L_ii - |z_m|^2 / 2),
//   d/dy_m = -a_m,  d/dmu_m = a_m,
//   d/dSigma = 1/2 sum_m (a_m a_m^T - Sigma^{-1}).
// The Sigma gradient is accumulated into the FULL matrix, both triangles, i.e. it is the gradient
// with the k^2 entries treated as independent (the gradient of the formula extended to general
// matrices, which is symmetric). A caller whose Sigma is built symmetrically from parameters
// propagates both triangles; the derivative along a symmetric perturbation dS_ij = dS_ji = h is
// G_ij + G_ji = 2 G_ij (i != j).
extern "C" double pvi_multi_normal_lpdf_grad(double adj, int64_t n, int64_t k, const double* y, int64_t s_y,
                                             const double* mu, int64_t s_mu, const double* Sigma, double* g_y,
                                             double* g_mu, double* g_Sigma) {
  if (k <= 0 || n <= 0) return 0.0;
  for (int64_t i = 0; i < k; ++i)
    if (!(Sigma[i + i * k] > 0.0)) return -INFINITY;
  if (!mvnVariatesFinite(n, k, y, s_y, mu, s_mu)) return -INFINITY;
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j + 1; i < k; ++i) {
      double a = Sigma[i + j * k], b = Sigma[j + i * k];
      if (!isFinite(a) || !isFinite(b)) return -INFINITY;
      if (!(std::fabs(a - b) <= 1e-8 * std::sqrt(Sigma[i + i * k] * Sigma[j + j * k]))) return -INFINITY;
    }
  const std::size_t kk = static_cast<std::size_t>(k) * static_cast<std::size_t>(k);
  Scratch buf(2 * kk + 3 * static_cast<std::size_t>(k));
  double* L = buf.data();
  double* outer = L + kk;  // sum_m a_m a_m^T
  double* z = outer + kk;
  double* a = z + k;
  double* col = a + k;
  if (!choleskyLower(k, Sigma, L)) return -INFINITY;
  double log_det_half = 0.0;
  for (int64_t i = 0; i < k; ++i) log_det_half += std::log(L[i + i * k]);
  if (g_Sigma)
    for (std::size_t i = 0; i < kk; ++i) outer[i] = 0.0;
  const double q = mvnQuadraticForms(n, k, L, y, s_y, mu, s_mu, g_y || g_mu || g_Sigma, adj, g_y, g_mu, z, a,
                                     [&](const double*, const double* am) {
                                       if (g_Sigma)
                                         for (int64_t j = 0; j < k; ++j)
                                           for (int64_t i = 0; i < k; ++i) outer[i + j * k] += am[i] * am[j];
                                     });
  const double nd = static_cast<double>(n);
  const double lp = nd * (-0.5 * static_cast<double>(k) * kLog2Pi - log_det_half) - 0.5 * q;
  if (g_Sigma) {
    const double h = 0.5 * adj;
    for (int64_t j = 0; j < k; ++j) {
      // Column j of Sigma^{-1}.
      for (int64_t i = 0; i < k; ++i) col[i] = i == j ? 1.0 : 0.0;
      forwardSolve(k, L, col);
      backSolveTransposed(k, L, col);
      double* __restrict__ gj = g_Sigma + j * k;
      const double* oj = outer + j * k;
      for (int64_t i = 0; i < k; ++i) gj[i] += h * (oj[i] - nd * col[i]);
    }
  }
  return lp;
}
