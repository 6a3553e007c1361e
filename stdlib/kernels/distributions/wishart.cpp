// wishart(W | nu, S): value and gradient. W and S K x K symmetric positive definite (column-major,
// kk = K^2 elements each), nu > K - 1:
//   log p = (nu - K - 1)/2 log|W| - tr(S^-1 W)/2 - nu K/2 log 2 - nu/2 log|S| - log Gamma_K(nu/2),
//   d/dW = (nu - K - 1)/2 W^-1 - S^-1 / 2,
//   d/dS = -nu/2 S^-1 + S^-1 W S^-1 / 2,
//   d/dnu = log|W| / 2 - K/2 log 2 - log|S| / 2 - d log Gamma_K(nu/2) / d nu.
// Matrix gradients are those of the formula over all K^2 entries (symmetric), as multi_normal's.
#include <cmath>

#include "stdlib/kernels/distributions/matrix_density_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_wishart_lpdf(int64_t kk, const double* W, const double* nu, const double* S) {
  return pvi_wishart_lpdf_grad(0.0, kk, W, nu, S, nullptr, nullptr, nullptr);
}

extern "C" double pvi_wishart_lpdf_grad(double adj, int64_t kk, const double* W, const double* nu, const double* S,
                                        double* g_W, double* g_nu, double* g_S) {
  if (kk == 0) return 0.0;
  Scratch buf(static_cast<std::size_t>(5 * kk));
  double* LW = buf.data();
  double* LS = LW + kk;
  double* Sinv = LS + kk;
  double* Winv = Sinv + kk;
  double* T = Winv + kk;  // S^-1 W S^-1
  WishartArguments args;
  const double n = nu[0];
  if (!wishartArguments(kk, W, n, S, LW, LS, &args)) return -INFINITY;
  const int64_t k = args.k;
  const double kd = static_cast<double>(k), logDetW = args.logDetW, logDetS = args.logDetS;
  inverseFromCholesky(k, LS, Sinv);
  const double trace = traceOfProduct(k, Sinv, W);
  double dGamma = 0.0;
  const double lp = 0.5 * (n - kd - 1.0) * logDetW - 0.5 * trace - 0.5 * n * kd * std::log(2.0) - 0.5 * n * logDetS -
                    logMultiGamma(k, 0.5 * n, &dGamma);
  if (g_nu) g_nu[0] += adj * (0.5 * logDetW - 0.5 * kd * std::log(2.0) - 0.5 * logDetS - 0.5 * dGamma);
  if (g_W) {
    inverseFromCholesky(k, LW, Winv);
    for (int64_t e = 0; e < kk; ++e) g_W[e] += adj * (0.5 * (n - kd - 1.0) * Winv[e] - 0.5 * Sinv[e]);
  }
  if (g_S) {
    sandwich(k, Sinv, W, T);
    for (int64_t e = 0; e < kk; ++e) g_S[e] += adj * (-0.5 * n * Sinv[e] + 0.5 * T[e]);
  }
  return lp;
}
