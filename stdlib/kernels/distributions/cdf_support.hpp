#pragma once
// Shared by the log CDF and log CCDF kernels (<name>_cdf.cpp): Stan's D_lcdf(y | ...) is
// sum_i log F(y_i | ...) and D_lccdf(y | ...) is sum_i log(1 - F(y_i | ...)). Each side is
// computed from the tail it is small in (log F where F < 1/2, log1p(-(1 - F)) above), so that
// neither loses the digits of a probability near 0 or 1.
#include <cmath>
#include <cstdint>

#include "stdlib/kernels/kernel_support.hpp"

namespace pvi::kern {

// A log CDF (or CCDF) at a standardised point z, and its derivative in z.
struct LogCdf {
  double value, slope;
};

inline constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1 / sqrt(2 pi)

// log Phi(z) for the standard normal: erfc where it is representable; below z = -37.5 (where
// Phi < 1e-300) the asymptotic series of Mills' ratio, Phi(z) = phi(z) / (-z) S(z) with
// S = 1 - 1/z^2 + 3/z^4 - 15/z^6 + 105/z^8 - 945/z^10 (truncation error < 3e-15 there).
inline LogCdf logPhi(double z) {
  const double phi = kInvSqrt2Pi * std::exp(-0.5 * z * z);
  if (z > 0) {
    const double q = 0.5 * std::erfc(z * 0.70710678118654752440);
    return {std::log1p(-q), phi / (1.0 - q)};
  }
  if (z > -37.5) {
    const double p = 0.5 * std::erfc(-z * 0.70710678118654752440);
    return {std::log(p), phi / p};
  }
  if (!(z > -1e150)) return {-INFINITY, 0.0};
  const double r = 1.0 / (z * z);
  const double s = 1.0 + r * (-1.0 + r * (3.0 + r * (-15.0 + r * (105.0 - 945.0 * r))));
  return {-0.5 * z * z - kHalfLog2Pi - std::log(-z) + std::log(s), -z / s};
}

// The complement of a standard log CDF f: log(1 - F(z)) = f(-z) for a symmetric F.
template <class F>
LogCdf reflected(F f, double z) {
  const LogCdf c = f(-z);
  return {c.value, -c.slope};
}

// sum_i log F((y_i - mu_i) / sigma_i) for a location-scale family whose standard log CDF (or
// CCDF) is f(z) -> LogCdf. Every argument must be finite and sigma > 0 (else -INFINITY).
template <class F>
double locationScaleLogCdf(double adj, int64_t n, const double* y, int64_t s_y, const double* mu, int64_t s_mu,
                           const double* sigma, int64_t s_sigma, double* g_y, double* g_mu, double* g_sigma, F f) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double yi = y[i * s_y], mi = mu[i * s_mu], si = sigma[i * s_sigma];
    if (!positiveFinite(si) || !isFinite(yi) || !isFinite(mi)) return -INFINITY;
    const double inv = 1.0 / si, z = (yi - mi) * inv;
    const LogCdf c = f(z);
    lp += c.value;
    if (!std::isfinite(c.value)) continue;  // probability 0: no gradient
    const double d = adj * c.slope * inv;
    if (g_y) g_y[i * s_y] += d;
    if (g_mu) g_mu[i * s_mu] -= d;
    if (g_sigma) g_sigma[i * s_sigma] -= d * z;
  }
  return lp;
}

// log(1 - exp(-t)) for t >= 0 (log1m_exp(-t)) and its derivative in t, 1 / expm1(t).
inline LogCdf log1mExpNeg(double t) {
  if (t == INFINITY) return {0.0, 0.0};
  const double e = std::expm1(t);
  return {t > kLog2 ? std::log1p(-std::exp(-t)) : std::log(-std::expm1(-t)), 1.0 / e};
}

// d/dx g(x) for a smooth g evaluated in double precision, where no closed form is at hand (the
// derivative of an incomplete beta or gamma function in its shape): central differences with
// steps h and h/2 combined by Richardson extrapolation (error O(h^4)), h = 1e-3 x.
template <class G>
double richardsonDerivative(G g, double x) {
  const double h = 1e-3 * x;
  const double d1 = (g(x + h) - g(x - h)) / (2.0 * h);
  const double d2 = (g(x + 0.5 * h) - g(x - 0.5 * h)) / h;
  return (4.0 * d2 - d1) / 3.0;
}

}  // namespace pvi::kern
