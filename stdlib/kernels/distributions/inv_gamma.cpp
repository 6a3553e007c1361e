// inv_gamma(y | alpha, beta), shape alpha and scale beta: value and gradient. Support y > 0.
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" double pvi_inv_gamma_lpdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                     const double* beta, int64_t s_beta) {
  return pvi_inv_gamma_lpdf_grad(0.0, n, y, s_y, alpha, s_alpha, beta, s_beta, nullptr, nullptr, nullptr);
}

// log p = alpha log(beta) - lgamma(alpha) - (alpha + 1) log(y) - beta / y
//       = log gamma(1/y | alpha, beta) - 2 log(y)
//       = -stirlerr(alpha) - bd0(alpha, beta/y) - log(2 pi alpha)/2 + log(alpha) - log(y)
// (see gamma.cpp: no cancellation of alpha log(alpha)-sized terms for large alpha).
// d/dy = -(alpha + 1)/y + beta/y^2, d/dalpha = log(beta) - digamma(alpha) - log(y),
// d/dbeta = alpha/beta - 1/y.
extern "C" double pvi_inv_gamma_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                          int64_t s_alpha, const double* beta, int64_t s_beta, double* g_y,
                                          double* g_alpha, double* g_beta) {
  double lp = 0.0;
  double c_alpha = 0.0, dg_alpha = 0.0, log_beta = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], ai = alpha[i * s_alpha], bi = beta[i * s_beta];
    if (!positiveFinite(ai) || !positiveFinite(bi) || !positiveFinite(yi)) return -INFINITY;
    if (i == 0 || s_alpha) {
      c_alpha = -stirlerr(ai) + 0.5 * std::log(ai) - kHalfLog2Pi;
      if (g_alpha) dg_alpha = digamma(ai);
    }
    double log_y = std::log(yi);
    double inv_y = 1.0 / yi;
    double bdy = bi / yi;
    if (bdy > 0.0 && bdy < INFINITY)
      lp += c_alpha - bd0(ai, bdy) - log_y;
    else  // beta/y under- or overflowed: the direct form (no cancellation there)
      lp += ai * std::log(bi) - lgam(ai) - (ai + 1.0) * log_y - bdy;
    if (g_y) g_y[i * s_y] += adj * (bi * inv_y - (ai + 1.0)) * inv_y;
    if (g_beta) g_beta[i * s_beta] += adj * (ai / bi - inv_y);
    if (g_alpha) {
      if (i == 0 || s_beta) log_beta = std::log(bi);
      g_alpha[i * s_alpha] += adj * (log_beta - dg_alpha - log_y);
    }
  }
  return lp;
}
