// logistic_lcdf and logistic_lccdf (y | mu, sigma): values and gradients.
#include "stdlib/kernels/distributions/cdf_support.hpp"

using namespace pvi::kern;

namespace {
// log inv_logit(z) = -softplus(-z), with derivative inv_logit(-z).
LogCdf logisticLogCdf(double z) { return {-softplus(-z), invLogit(-z)}; }
}  // namespace

extern "C" double pvi_logistic_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                         int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                         double* g_mu, double* g_sigma) {
  return locationScaleLogCdf(adj, n, y, s_y, mu, s_mu, sigma, s_sigma, g_y, g_mu, g_sigma, logisticLogCdf);
}
extern "C" double pvi_logistic_lcdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                    const double* sigma, int64_t s_sigma) {
  return pvi_logistic_lcdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

extern "C" double pvi_logistic_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                          int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                          double* g_mu, double* g_sigma) {
  return locationScaleLogCdf(adj, n, y, s_y, mu, s_mu, sigma, s_sigma, g_y, g_mu, g_sigma,
                             [](double z) { return reflected(logisticLogCdf, z); });
}
extern "C" double pvi_logistic_lccdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                     const double* sigma, int64_t s_sigma) {
  return pvi_logistic_lccdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}
