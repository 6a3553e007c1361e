// uniform(y | alpha, beta): value and gradient. Support alpha <= y <= beta (closed), alpha < beta.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_uniform_lpdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                   const double* beta, int64_t s_beta) {
  return pvi_uniform_lpdf_grad(0.0, n, y, s_y, alpha, s_alpha, beta, s_beta, nullptr, nullptr, nullptr);
}

// log p = -log(beta - alpha); d/dy = 0, d/dalpha = 1/(beta - alpha), d/dbeta = -1/(beta - alpha).
// beta - alpha may overflow for finite bounds; then it is formed as 2 (beta/2 - alpha/2).
extern "C" double pvi_uniform_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                        int64_t s_alpha, const double* beta, int64_t s_beta, double* /*g_y*/,
                                        double* g_alpha, double* g_beta) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], ai = alpha[i * s_alpha], bi = beta[i * s_beta];
    if (!isFinite(ai) || !isFinite(bi) || !(ai < bi) || !(yi >= ai && yi <= bi)) return -INFINITY;
    double w = bi - ai, log_w, inv_w;
    if (w < INFINITY) {
      log_w = std::log(w);
      inv_w = 1.0 / w;
    } else {
      double half_w = 0.5 * bi - 0.5 * ai;
      log_w = std::log(half_w) + kLog2;
      inv_w = 0.5 / half_w;
    }
    lp -= log_w;
    if (g_alpha) g_alpha[i * s_alpha] += adj * inv_w;
    if (g_beta) g_beta[i * s_beta] -= adj * inv_w;
  }
  return lp;
}
