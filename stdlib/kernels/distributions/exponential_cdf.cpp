// exponential_lcdf and exponential_lccdf (y | beta): values and gradients.
//   lccdf = -beta y;  lcdf = log(1 - exp(-beta y)), d/d(beta y) = 1 / expm1(beta y).
// y <= 0 gives lcdf -inf and lccdf 0 (F = 0 there, as in Stan).
#include "stdlib/kernels/distributions/cdf_support.hpp"

using namespace pvi::kern;

namespace {
double exponentialLogCdf(bool complement, double adj, int64_t n, const double* y, int64_t s_y, const double* beta,
                         int64_t s_beta, double* g_y, double* g_beta) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], bi = beta[i * s_beta];
    if (!positiveFinite(bi) || !isFinite(yi)) return -INFINITY;
    if (yi < 0.0) {  // below the support: F = 0
      lp += complement ? 0.0 : -INFINITY;
      continue;
    }
    const double t = bi * yi;
    const LogCdf c = complement ? LogCdf{-t, -1.0} : log1mExpNeg(t);
    lp += c.value;
    if (t == 0.0 && !complement) continue;  // log 0: no gradient
    if (g_y) g_y[i * s_y] += adj * c.slope * bi;
    if (g_beta) g_beta[i * s_beta] += adj * c.slope * yi;
  }
  return lp;
}
}  // namespace

extern "C" double pvi_exponential_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* beta,
                                            int64_t s_beta, double* g_y, double* g_beta) {
  return exponentialLogCdf(false, adj, n, y, s_y, beta, s_beta, g_y, g_beta);
}
extern "C" double pvi_exponential_lcdf(int64_t n, const double* y, int64_t s_y, const double* beta, int64_t s_beta) {
  return exponentialLogCdf(false, 0.0, n, y, s_y, beta, s_beta, nullptr, nullptr);
}
extern "C" double pvi_exponential_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* beta,
                                             int64_t s_beta, double* g_y, double* g_beta) {
  return exponentialLogCdf(true, adj, n, y, s_y, beta, s_beta, g_y, g_beta);
}
extern "C" double pvi_exponential_lccdf(int64_t n, const double* y, int64_t s_y, const double* beta, int64_t s_beta) {
  return exponentialLogCdf(true, 0.0, n, y, s_y, beta, s_beta, nullptr, nullptr);
}
