// lkj_corr(Omega | eta): value and gradient. Omega a K x K correlation matrix (column-major,
// kk = K^2 elements), eta > 0:
//   log p = log c_K(eta) + (eta - 1) log det Omega   (the constant: matrix_density_support.hpp),
//   d/dOmega = (eta - 1) Omega^-1,  d/deta = log det Omega + d log c_K / d eta.
// The Omega gradient is that of the formula over all K^2 entries (symmetric), as multi_normal's.
// Omega not symmetric positive definite, or eta <= 0, gives -inf; the unit diagonal is the
// corr_matrix transform's business (as the unit rows are lkj_corr_cholesky's).
#include <cmath>

#include "stdlib/kernels/distributions/matrix_density_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_lkj_corr_lpdf(int64_t kk, const double* Omega, const double* eta) {
  return pvi_lkj_corr_lpdf_grad(0.0, kk, Omega, eta, nullptr, nullptr);
}

extern "C" double pvi_lkj_corr_lpdf_grad(double adj, int64_t kk, const double* Omega, const double* eta,
                                         double* g_Omega, double* g_eta) {
  const auto k = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(kk))));
  if (k * k != kk || !positiveFinite(eta[0])) return -INFINITY;
  if (k == 0) return 0.0;
  Scratch buf(static_cast<std::size_t>(2 * kk));
  double* L = buf.data();
  double logDet = 0.0;
  if (!symmetricPositiveDefinite(k, Omega, L, &logDet)) return -INFINITY;
  double dConstant = 0.0;
  const double lp = lkjLogConstant(k, eta[0], &dConstant) + (eta[0] - 1.0) * logDet;
  if (g_eta) g_eta[0] += adj * (logDet + dConstant);
  if (g_Omega && eta[0] != 1.0) {
    double* inv = L + kk;
    inverseFromCholesky(k, L, inv);
    for (int64_t e = 0; e < kk; ++e) g_Omega[e] += adj * (eta[0] - 1.0) * inv[e];
  }
  return lp;
}
