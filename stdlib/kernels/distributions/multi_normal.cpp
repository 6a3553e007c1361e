// multi_normal(y | mu, Sigma), Sigma a k x k covariance (column-major): value and gradient.
#include <cmath>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_multi_normal_lpdf(int64_t k, const double* y, const double* mu, const double* Sigma) {
  return pvi_multi_normal_lpdf_grad(0.0, k, y, mu, Sigma, nullptr, nullptr, nullptr);
}

// Sigma must be symmetric (|S_ij - S_ji| <= 1e-8 sqrt(S_ii S_jj)) and positive definite, else
// -INFINITY. With Sigma = L L^T (Cholesky of the lower triangle), r = y - mu, z = L^{-1} r,
// a = Sigma^{-1} r = L^{-T} z:
//   log p = -k/2 log(2 pi) - sum_i log L_ii - |z|^2 / 2,
//   d/dy = -a,  d/dmu = a,
//   d/dSigma = 1/2 (a a^T - Sigma^{-1})   (= 1/2 (Sigma^{-1} r r^T Sigma^{-1} - Sigma^{-1})).
// The Sigma gradient is accumulated into the FULL matrix, both triangles, i.e. it is the gradient
// with the k^2 entries treated as independent (the gradient of the formula extended to general
// matrices, which is symmetric). A caller whose Sigma is built symmetrically from parameters
// propagates both triangles; the derivative along a symmetric perturbation dS_ij = dS_ji = h is
// G_ij + G_ji = 2 G_ij (i != j).
extern "C" double pvi_multi_normal_lpdf_grad(double adj, int64_t k, const double* y, const double* mu,
                                             const double* Sigma, double* g_y, double* g_mu, double* g_Sigma) {
  if (k <= 0) return 0.0;
  for (int64_t i = 0; i < k; ++i)
    if (!isFinite(y[i]) || !isFinite(mu[i]) || !(Sigma[i + i * k] > 0.0)) return -INFINITY;
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j + 1; i < k; ++i) {
      double a = Sigma[i + j * k], b = Sigma[j + i * k];
      if (!isFinite(a) || !isFinite(b)) return -INFINITY;
      if (!(std::fabs(a - b) <= 1e-8 * std::sqrt(Sigma[i + i * k] * Sigma[j + j * k]))) return -INFINITY;
    }
  const std::size_t kk = static_cast<std::size_t>(k) * static_cast<std::size_t>(k);
  Scratch buf(kk + 2 * static_cast<std::size_t>(k));
  double* L = buf.data();
  double* z = L + kk;
  double* col = z + k;
  if (!choleskyLower(k, Sigma, L)) return -INFINITY;
  double log_det_half = 0.0;
  for (int64_t i = 0; i < k; ++i) {
    log_det_half += std::log(L[i + i * k]);
    z[i] = y[i] - mu[i];
  }
  forwardSolve(k, L, z);
  double q = 0.0;
  for (int64_t i = 0; i < k; ++i) q += z[i] * z[i];
  double lp = -0.5 * static_cast<double>(k) * kLog2Pi - log_det_half - 0.5 * q;
  if (!g_y && !g_mu && !g_Sigma) return lp;
  double* a = z;  // z is no longer needed
  backSolveTransposed(k, L, a);
  for (int64_t i = 0; i < k; ++i) {
    if (g_y) g_y[i] -= adj * a[i];
    if (g_mu) g_mu[i] += adj * a[i];
  }
  if (g_Sigma) {
    const double h = 0.5 * adj;
    for (int64_t j = 0; j < k; ++j) {
      // Column j of Sigma^{-1}.
      for (int64_t i = 0; i < k; ++i) col[i] = i == j ? 1.0 : 0.0;
      forwardSolve(k, L, col);
      backSolveTransposed(k, L, col);
      double* __restrict__ gj = g_Sigma + j * k;
      const double aj = a[j];
      for (int64_t i = 0; i < k; ++i) gj[i] += h * (a[i] * aj - col[i]);
    }
  }
  return lp;
}
