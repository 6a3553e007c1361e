// beta(y | alpha, beta): value and gradient. Support 0 < y < 1 (the open interval: the end
// points give -INFINITY whatever the shapes).
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" double pvi_beta_lpdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                const double* beta, int64_t s_beta) {
  return pvi_beta_lpdf_grad(0.0, n, y, s_y, alpha, s_alpha, beta, s_beta, nullptr, nullptr, nullptr);
}

// log p = (a - 1) log(y) + (b - 1) log1p(-y) - lbeta(a, b). When both shapes exceed 2 the terms
// grow like a log(a) and cancel (a = b = 1e5: 1e5-sized terms, O(1) value); then, as R's dbeta,
// beta(y | a, b) = (a + b - 1) binomial(a - 1 | a + b - 2, y) with Loader's saddle-point binomial
// (saddle_point.hpp), which only combines O(1) quantities.
// d/dy = (a - 1)/y - (b - 1)/(1 - y), d/da = log(y) - digamma(a) + digamma(a + b),
// d/db = log1p(-y) - digamma(b) + digamma(a + b).
extern "C" double pvi_beta_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
                                     int64_t s_alpha, const double* beta, int64_t s_beta, double* g_y,
                                     double* g_alpha, double* g_beta) {
  double lp = 0.0;
  double lb = 0.0, dg_a = 0.0, dg_b = 0.0, dg_ab = 0.0;
  const bool need_dg = g_alpha || g_beta;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], ai = alpha[i * s_alpha], bi = beta[i * s_beta];
    if (!positiveFinite(ai) || !positiveFinite(bi) || !(yi > 0.0 && yi < 1.0)) return -INFINITY;
    bool new_ab = i == 0 || s_alpha || s_beta;
    const bool saddle = ai > 2.0 && bi > 2.0;
    if (new_ab && !saddle) lb = lbeta(ai, bi);
    if (need_dg && new_ab) {
      dg_ab = digamma(ai + bi);
      if (g_alpha && (i == 0 || s_alpha)) dg_a = digamma(ai);
      if (g_beta && (i == 0 || s_beta)) dg_b = digamma(bi);
    }
    double log_y = std::log(yi), log1m_y = std::log1p(-yi);
    if (saddle)
      lp += std::log(ai + bi - 1.0) + logBinomRaw(ai - 1.0, ai + bi - 2.0, bi - 1.0, yi, 1.0 - yi);
    else
      lp += (ai - 1.0) * log_y + (bi - 1.0) * log1m_y - lb;
    if (g_y) g_y[i * s_y] += adj * ((ai - 1.0) / yi - (bi - 1.0) / (1.0 - yi));
    if (g_alpha) g_alpha[i * s_alpha] += adj * (log_y - dg_a + dg_ab);
    if (g_beta) g_beta[i * s_beta] += adj * (log1m_y - dg_b + dg_ab);
  }
  return lp;
}
