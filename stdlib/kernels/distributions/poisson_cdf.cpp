// poisson_lcdf and poisson_lccdf (y | lambda): values and gradients.
//   P(N <= y) = Q(y + 1, lambda) and P(N > y) = P(y + 1, lambda) (regularised incomplete gamma
//   functions, Boost), with d/dlambda P(y + 1, lambda) = lambda^y exp(-lambda) / y!, the pmf at y.
// lambda = 0 puts all mass at 0; y < 0 has P(N <= y) = 0 (lcdf -inf, lccdf 0, as in Stan);
// lambda < 0 is outside.
#include <boost/math/special_functions/gamma.hpp>

#include "stdlib/kernels/distributions/cdf_support.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

namespace {
double poissonLogCdf(bool complement, double adj, int64_t n, const int64_t* y, int64_t s_y, const double* lambda,
                     int64_t s_lambda, double* g_lambda) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t yi = y[i * s_y];
    const double li = lambda[i * s_lambda];
    if (!(li >= 0.0) || !isFinite(li)) return -INFINITY;
    if (yi < 0) {  // below the support: P(N <= y) = 0
      lp += complement ? 0.0 : -INFINITY;
      continue;
    }
    if (li == 0.0) {
      lp += complement ? -INFINITY : 0.0;
      continue;
    }
    const double a = static_cast<double>(yi) + 1.0;
    const double p = boost::math::gamma_p(a, li, BoostPolicy()), q = boost::math::gamma_q(a, li, BoostPolicy());
    const double pmf = boost::math::gamma_p_derivative(a, li, BoostPolicy());
    const double value = complement ? (p < 0.5 ? std::log(p) : std::log1p(-q)) : (q < 0.5 ? std::log(q) : std::log1p(-p));
    lp += value;
    if (g_lambda && std::isfinite(value)) g_lambda[i * s_lambda] += adj * (complement ? pmf / p : -pmf / q);
  }
  return lp;
}
}  // namespace

extern "C" double pvi_poisson_lcdf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, const double* lambda,
                                        int64_t s_lambda, double* g_lambda) {
  return poissonLogCdf(false, adj, n, y, s_y, lambda, s_lambda, g_lambda);
}
extern "C" double pvi_poisson_lcdf(int64_t n, const int64_t* y, int64_t s_y, const double* lambda, int64_t s_lambda) {
  return poissonLogCdf(false, 0.0, n, y, s_y, lambda, s_lambda, nullptr);
}
extern "C" double pvi_poisson_lccdf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, const double* lambda,
                                         int64_t s_lambda, double* g_lambda) {
  return poissonLogCdf(true, adj, n, y, s_y, lambda, s_lambda, g_lambda);
}
extern "C" double pvi_poisson_lccdf(int64_t n, const int64_t* y, int64_t s_y, const double* lambda, int64_t s_lambda) {
  return poissonLogCdf(true, 0.0, n, y, s_y, lambda, s_lambda, nullptr);
}
