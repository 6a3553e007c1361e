// lkj_corr_cholesky(L | eta): value and gradient. L the K x K Cholesky factor of a correlation
// matrix (column-major, kk = K^2 elements), eta > 0. The LKJ density of Omega = L L' is
// c_K(eta) det(Omega)^(eta - 1) (Lewandowski, Kurowicka and Joe 2009); with the Jacobian of
// Omega(L), prod_{k=2}^K L_kk^(K - k), the density of L is (1-based k)
//   log p = log c_K(eta) + sum_{k=2}^K (K - k + 2 eta - 2) log L_kk,
//   -log c_K(eta) = sum_{i=1}^{K-1} [(2 eta - 2 + K - i)(K - i) log 2 + (K - i) lbeta(b_i, b_i)],
//   b_i = eta + (K - i - 1) / 2
// (K = 2: the correlation r has density (1 - r^2)^(eta - 1) / (2^(2 eta - 1) B(eta, eta)); K = 3,
// eta = 1: 2 / pi^2, the inverse of the volume of 3 x 3 correlation matrices).
// Gradient: d/dL_kk = (K - k + 2 eta - 2) / L_kk; d/deta = sum_k 2 log L_kk
//   - sum_i (K - i) [2 log 2 + 2 digamma(b_i) - 2 digamma(2 b_i)].
// L outside the support (not square, an element not finite, a diagonal element <= 0) or eta <= 0
// gives -inf; the rest of the constraint (lower triangular, unit rows) is the transform's business.
#include <cmath>

#include "stdlib/kernels/distributions/matrix_density_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_lkj_corr_cholesky_lpdf(int64_t kk, const double* L, const double* eta) {
  return pvi_lkj_corr_cholesky_lpdf_grad(0.0, kk, L, eta, nullptr, nullptr);
}

extern "C" double pvi_lkj_corr_cholesky_lpdf_grad(double adj, int64_t kk, const double* L, const double* eta,
                                                  double* g_L, double* g_eta) {
  const auto k = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(kk))));
  if (k * k != kk || !positiveFinite(eta[0])) return -INFINITY;
  for (int64_t i = 0; i < kk; ++i)
    if (!isFinite(L[i])) return -INFINITY;
  const double e = eta[0];
  double dEta = 0.0;
  double lp = lkjLogConstant(k, e, &dEta);
  for (int64_t d = 1; d < k; ++d) {  // 0-based diagonal index d: 1-based k = d + 1
    const double x = L[d + d * k];
    if (!(x > 0.0) || !isFinite(x)) return -INFINITY;
    const double coefficient = static_cast<double>(k - d - 1) + 2.0 * e - 2.0;
    const double logX = std::log(x);
    lp += coefficient * logX;
    dEta += 2.0 * logX;
    if (g_L) g_L[d + d * k] += adj * coefficient / x;
  }
  if (!(L[0] > 0.0)) return -INFINITY;
  if (g_eta) g_eta[0] += adj * dEta;
  return lp;
}
