// cauchy_lcdf and cauchy_lccdf (y | mu, sigma): values and gradients.
#include "stdlib/kernels/distributions/cdf_support.hpp"

using namespace pvi::kern;

namespace {
// F(z) = 1/2 + atan(z) / pi, computed for z < 0 as atan(-1/z) / pi (no cancellation in the left
// tail); F'(z) = 1 / (pi (1 + z^2)).
LogCdf cauchyLogCdf(double z) {
  constexpr double kInvPi = 0.31830988618379067154;
  const double f = z < 0 ? std::atan(-1.0 / z) * kInvPi : 0.5 + std::atan(z) * kInvPi;
  const double density = std::fabs(z) < 1e150 ? kInvPi / (1.0 + z * z) : 0.0;
  return {std::log(f), density / f};
}
}  // namespace

extern "C" double pvi_cauchy_lcdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                       int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y, double* g_mu,
                                       double* g_sigma) {
  return locationScaleLogCdf(adj, n, y, s_y, mu, s_mu, sigma, s_sigma, g_y, g_mu, g_sigma, cauchyLogCdf);
}
extern "C" double pvi_cauchy_lcdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                  const double* sigma, int64_t s_sigma) {
  return pvi_cauchy_lcdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}

extern "C" double pvi_cauchy_lccdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* mu,
                                        int64_t s_mu, const double* sigma, int64_t s_sigma, double* g_y,
                                        double* g_mu, double* g_sigma) {
  return locationScaleLogCdf(adj, n, y, s_y, mu, s_mu, sigma, s_sigma, g_y, g_mu, g_sigma,
                             [](double z) { return reflected(cauchyLogCdf, z); });
}
extern "C" double pvi_cauchy_lccdf(int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                                   const double* sigma, int64_t s_sigma) {
  return pvi_cauchy_lccdf_grad(0.0, n, y, s_y, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr);
}
