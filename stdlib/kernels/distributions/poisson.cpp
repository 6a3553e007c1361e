// poisson(y | lambda): value and gradient. y >= 0, lambda >= 0 (lambda = 0 allows only y = 0).
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"

using namespace pvi::kern;

extern "C" double pvi_poisson_lpmf(int64_t n, const int64_t* y, int64_t s_y, const double* lambda,
                                   int64_t s_lambda) {
  return pvi_poisson_lpmf_grad(0.0, n, y, s_y, lambda, s_lambda, nullptr);
}

// log p = y log(lambda) - lambda - lgamma(y + 1), evaluated by Loader's saddle-point form
// (saddle_point.hpp): exact to rounding for large y and lambda. d/dlambda = y/lambda - 1.
extern "C" double pvi_poisson_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, const double* lambda,
                                        int64_t s_lambda, double* g_lambda) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y];
    double li = lambda[i * s_lambda];
    if (!(li >= 0.0) || !isFinite(li) || yi < 0) return -INFINITY;
    double yd = static_cast<double>(yi);
    lp += logPoisRaw(yd, li);
    if (g_lambda) g_lambda[i * s_lambda] += adj * (yi > 0 ? yd / li - 1.0 : -1.0);
  }
  return lp;
}
