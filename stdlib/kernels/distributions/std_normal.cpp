// std_normal(y): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_std_normal_lpdf(int64_t n, const double* y, int64_t s_y) {
  return pvi_std_normal_lpdf_grad(0.0, n, y, s_y, nullptr);
}

extern "C" double pvi_std_normal_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, double* g_y) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y];
    if (!isFinite(yi)) return -INFINITY;
    lp += -0.5 * yi * yi - kHalfLog2Pi;
    if (g_y) g_y[i * s_y] -= adj * yi;
  }
  return lp;
}
