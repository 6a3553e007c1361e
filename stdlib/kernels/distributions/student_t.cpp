// student_t(y | nu, mu, sigma): value and gradient.
#include <cmath>

#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" double pvi_student_t_lpdf(int64_t n, const double* y, int64_t s_y, const double* nu, int64_t s_nu,
                                     const double* mu, int64_t s_mu, const double* sigma, int64_t s_sigma) {
  return pvi_student_t_lpdf_grad(0.0, n, y, s_y, nu, s_nu, mu, s_mu, sigma, s_sigma, nullptr, nullptr, nullptr,
                                 nullptr);
}

// log p = lgamma((nu+1)/2) - lgamma(nu/2) - log(nu pi)/2 - log(sigma) - (nu+1)/2 log1p(z^2/nu)
//       = R(nu/2) - log(2 pi)/2 - log(sigma) - (nu+1)/2 log1p(z^2/nu),
// with R(x) = lgamma(x + 1/2) - lgamma(x) - log(x)/2 evaluated without cancellation for large nu.
// With t = z^2 / nu:
//   d/dy     = -(nu+1) z / (sigma (nu + z^2)),          d/dmu = -d/dy,
//   d/dsigma = -1/sigma + (nu+1) z^2 / (sigma (nu + z^2)),
//   d/dnu    = (digamma((nu+1)/2) - digamma(nu/2))/2 - 1/(2 nu) - log1p(t)/2
//              + (nu+1) z^2 / (2 nu (nu + z^2)).
extern "C" double pvi_student_t_lpdf_grad(double adj, int64_t n, const double* y, int64_t s_y, const double* nu,
                                          int64_t s_nu, const double* mu, int64_t s_mu, const double* sigma,
                                          int64_t s_sigma, double* g_y, double* g_nu, double* g_mu, double* g_sigma) {
  double lp = 0.0;
  double log_sigma = 0.0, c_nu = 0.0, dg_nu = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double yi = y[i * s_y], ni = nu[i * s_nu], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !positiveFinite(ni) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    if (i == 0 || s_sigma) log_sigma = std::log(si);
    if (i == 0 || s_nu) {
      c_nu = lgammaRatioHalf(0.5 * ni) - kHalfLog2Pi;
      if (g_nu) dg_nu = 0.5 * (digamma(0.5 * (ni + 1.0)) - digamma(0.5 * ni)) - 0.5 / ni;
    }
    double inv = 1.0 / si;
    double z = (yi - mi) / si;
    double sqrt_nu = std::sqrt(ni);
    double zs = z / sqrt_nu;  // t = zs^2; zs may overflow (kernel_support.hpp)
    double l1p = log1pSquareScaled(zs, yi, mi, si * sqrt_nu);
    lp += c_nu - log_sigma - 0.5 * (ni + 1.0) * l1p;
    if (g_y || g_mu || g_sigma || g_nu) {
      // q = z^2 / (nu + z^2) and z / (nu + z^2), computed without overflowing z^2.
      double q, z_over;
      if (std::fabs(zs) <= 1.0) {
        double den = ni + z * z;
        q = z * z / den;
        z_over = z / den;
      } else {
        double w = ni / (z * z);  // finite: |z| > sqrt(nu)
        q = 1.0 / (1.0 + w);
        z_over = q / z;
      }
      double dy = -(ni + 1.0) * z_over * inv;
      if (g_y) g_y[i * s_y] += adj * dy;
      if (g_mu) g_mu[i * s_mu] -= adj * dy;
      if (g_sigma) g_sigma[i * s_sigma] += adj * ((ni + 1.0) * q - 1.0) * inv;
      if (g_nu) g_nu[i * s_nu] += adj * (dg_nu - 0.5 * l1p + 0.5 * (ni + 1.0) * q / ni);
    }
  }
  return lp;
}
