// gamma(y | alpha, beta), shape alpha and rate beta: value and gradient. Support y > 0.
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" double pvi_gamma_lpdf(int64_t n, const double* y, int64_t s_y, const double* alpha, int64_t s_alpha,
                                 const double* beta, int64_t s_beta) {
  return pvi_gamma_lpdf_grad(0.0, n, y, s_y, alpha, s_alpha, beta, s_beta, nullptr, nullptr, nullptr);
}

// log p = alpha log(beta) - lgamma(alpha) + (alpha - 1) log(y) - beta y. For large alpha the
// direct form subtracts terms of size alpha log(alpha) (1e6 -> 1e7) to get an O(log alpha) value;
// instead, as in Loader's algorithm, with lgamma(alpha) = (alpha - 1/2) log(alpha) - alpha +
// log(2 pi)/2 + stirlerr(alpha):
//   log p = log_poisson_raw(alpha | beta y) + log(alpha) - log(y)
//         = -stirlerr(alpha) - bd0(alpha, beta y) - log(2 pi alpha)/2 + log(alpha) - log(y),
// which only combines O(1) quantities (saddle_point.hpp). If beta y under- or overflows, the direct
// form is used (far from the mode, where it does not cancel).
// d/dy = (alpha - 1)/y - beta, d/dalpha = log(beta) - digamma(alpha) + log(y),
// d/dbeta = alpha/beta - y.
extern "C" double pvi_gamma_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* alpha,
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
    double by = bi * yi;
    if (by > 0.0 && by < INFINITY)
      lp += c_alpha - bd0(ai, by) - log_y;
    else  // beta y under- or overflowed: the direct form (no cancellation there)
      lp += ai * std::log(bi) - lgam(ai) + (ai - 1.0) * log_y - by;
    if (g_y) g_y[i * s_y] += adj * ((ai - 1.0) / yi - bi);
    if (g_beta) g_beta[i * s_beta] += adj * (ai / bi - yi);
    if (g_alpha) {
      if (i == 0 || s_beta) log_beta = std::log(bi);
      g_alpha[i * s_alpha] += adj * (log_beta - dg_alpha + log_y);
    }
  }
  return lp;
}
