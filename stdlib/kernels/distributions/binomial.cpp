// binomial(y | N, theta): value and gradient. 0 <= y <= N, theta in [0, 1].
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"

using namespace pvi::kern;

extern "C" double pvi_binomial_lpmf(int64_t n, const int64_t* y, int64_t s_y, const int64_t* N, int64_t s_N,
                                    const double* theta, int64_t s_theta) {
  return pvi_binomial_lpmf_grad(0.0, n, y, s_y, N, s_N, theta, s_theta, nullptr);
}

// log p = lchoose(N, y) + y log(theta) + (N - y) log1p(-theta), evaluated by Loader's saddle-point
// form (saddle_point.hpp) so that large N loses no digits. d/dtheta = y/theta - (N - y)/(1 - theta)
// (a zero count contributes nothing, also at theta = 0 or 1).
extern "C" double pvi_binomial_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, const int64_t* N,
                                         int64_t s_N, const double* theta, int64_t s_theta, double* g_theta) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y], Ni = N[i * s_N];
    double ti = theta[i * s_theta];
    if (!inUnit(ti) || yi < 0 || yi > Ni) return -INFINITY;
    double yd = static_cast<double>(yi), fd = static_cast<double>(Ni - yi);
    lp += logBinomRaw(yd, static_cast<double>(Ni), fd, ti, 1.0 - ti);
    if (g_theta) {
      double d = 0.0;
      if (yi > 0) d += yd / ti;
      if (Ni > yi) d -= fd / (1.0 - ti);
      g_theta[i * s_theta] += adj * d;
    }
  }
  return lp;
}
