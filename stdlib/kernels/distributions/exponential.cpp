// exponential(y | beta), beta the rate: value and gradient. Support y >= 0.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_exponential_lpdf(int64_t n, const double* y, int64_t s_y, const double* beta, int64_t s_beta) {
  return pvi_exponential_lpdf_grad(0.0, n, y, s_y, beta, s_beta, nullptr, nullptr);
}

// log p = log(beta) - beta y; d/dy = -beta, d/dbeta = 1/beta - y.
extern "C" double pvi_exponential_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* beta,
                                            int64_t s_beta, double* g_y, double* g_beta) {
  double lp = 0.0;
  double log_beta = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], bi = beta[i * s_beta];
    if (!positiveFinite(bi) || !(yi >= 0.0) || !isFinite(yi)) return -INFINITY;
    if (i == 0 || s_beta) log_beta = std::log(bi);
    lp += log_beta - bi * yi;
    if (g_y) g_y[i * s_y] -= adj * bi;
    if (g_beta) g_beta[i * s_beta] += adj * (1.0 / bi - yi);
  }
  return lp;
}
