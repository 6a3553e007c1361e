#pragma once
// Shared by the kernel implementations (not part of the C interface).
#include <cmath>
#include <cstdint>

#include "stdlib/kernels/kernels.h"

namespace pvi::kern {

inline constexpr double kLogPi = 1.14472988584940017414;       // log(pi)
inline constexpr double kLog2Pi = 1.83787706640934548356;      // log(2 pi)
inline constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2 pi) / 2
inline constexpr double kLog2 = 0.69314718055994530942;        // log(2)

// NaN fails every one of these.
inline bool isFinite(double x) { return std::isfinite(x); }
inline bool positiveFinite(double x) { return x > 0.0 && x < INFINITY; }
inline bool inUnit(double x) { return x >= 0.0 && x <= 1.0; }

// log(Gamma(x)) without touching the global `signgam` (std::lgamma writes it, a data race when
// kernels run on several threads).
inline double lgam(double x) {
#if defined(__GLIBC__)
  int sign;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

// log(1 + exp(x)) without overflow and without losing exp(x) << 1.
inline double softplus(double x) {
  return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// 1 / (1 + exp(-x)) without overflow; accurate in both tails (the small tail is never computed
// as 1 - something).
inline double invLogit(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  double e = std::exp(x);
  return e / (1.0 + e);
}

// log|y - mu| for finite y, mu, also when y - mu overflows.
inline double logAbsDiff(double y, double mu) {
  double d = y - mu;
  if (std::fabs(d) < INFINITY) return std::log(std::fabs(d));
  return std::log(std::fabs(0.5 * y - 0.5 * mu)) + kLog2;
}

// log(1 + z^2) with z = (y - mu) / s, also when z or z^2 overflows: then 2 (log|y - mu| - log s)
// (the omitted log1p(1/z^2) < 1e-300 is below the rounding).
inline double log1pSquareScaled(double z, double y, double mu, double s) {
  if (std::fabs(z) <= 1e150) return std::log1p(z * z);
  return 2.0 * (logAbsDiff(y, mu) - std::log(s));
}

}  // namespace pvi::kern
