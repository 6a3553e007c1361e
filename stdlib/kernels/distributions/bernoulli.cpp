// bernoulli(y | theta): value and gradient. y in {0, 1}, theta in [0, 1].
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_bernoulli_lpmf(int64_t n, const int64_t* y, int64_t s_y, const double* theta,
                                     int64_t s_theta) {
  return pvi_bernoulli_lpmf_grad(0.0, n, y, s_y, theta, s_theta, nullptr);
}

// log p = log(theta) if y = 1, log1p(-theta) if y = 0; d/dtheta = 1/theta or -1/(1 - theta).
extern "C" double pvi_bernoulli_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, const double* theta,
                                          int64_t s_theta, double* g_theta) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y];
    double ti = theta[i * s_theta];
    if (!inUnit(ti) || (yi != 0 && yi != 1)) return -INFINITY;
    if (yi == 1) {
      lp += std::log(ti);
      if (g_theta) g_theta[i * s_theta] += adj / ti;
    } else {
      lp += std::log1p(-ti);
      if (g_theta) g_theta[i * s_theta] -= adj / (1.0 - ti);
    }
  }
  return lp;
}
