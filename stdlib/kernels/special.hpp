#pragma once
// Special functions shared by the kernels (not part of the C interface): digamma and trigamma
// from Boost.Math with a non-throwing policy, and cancellation-free log-Gamma combinations.
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

namespace pvi::kern {

// Errors (poles, domain) become NaN / +-Inf instead of exceptions; no promotion to long double
// (Boost's double implementations are accurate to a few ulp).
using BoostPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::pole_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::underflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<boost::math::policies::ignore_error>,
    boost::math::policies::promote_double<false>>;

inline double digamma(double x) {
  if (std::isnan(x)) return x;
  return boost::math::digamma(x, BoostPolicy());
}
inline double trigamma(double x) {
  if (std::isnan(x)) return x;
  return boost::math::trigamma(x, BoostPolicy());
}

// Stirling remainder delta(x) = lgamma(x) - ((x - 1/2) log x - x + log(2 pi)/2), for x >= 10
// (the asymptotic series; truncation error < 4e-17 at x = 10).
inline double stirlingDelta(double x) {
  double r = 1.0 / x, r2 = r * r;
  return r * (1.0 / 12 +
              r2 * (-1.0 / 360 +
                    r2 * (1.0 / 1260 +
                          r2 * (-1.0 / 1680 + r2 * (1.0 / 1188 + r2 * (-691.0 / 360360 + r2 * (1.0 / 156)))))));
}

// lgamma(x + 1/2) - lgamma(x) - log(x)/2, x > 0. For large x both lgammas are huge and nearly
// equal; the Stirling form keeps only O(1/x) quantities.
inline double lgammaRatioHalf(double x) {
  if (x < 10.0) return lgam(x + 0.5) - lgam(x) - 0.5 * std::log(x);
  return x * std::log1p(0.5 / x) - 0.5 + stirlingDelta(x + 0.5) - stirlingDelta(x);
}

// log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b), a, b > 0, without the cancellation of the
// direct form when a or b is large.
inline double lbeta(double a, double b) {
  double x = std::fmin(a, b), y = std::fmax(a, b);  // x <= y
  if (y < 10.0) return lgam(x) + lgam(y) - lgam(x + y);
  if (x < 10.0) {
    // lgamma(y) - lgamma(x + y) by Stirling: -(y - 1/2) log1p(x/y) - x log(x + y) + x + deltas.
    double d = stirlingDelta(y) - stirlingDelta(x + y);
    return lgam(x) + (x - (y - 0.5) * std::log1p(x / y)) - x * std::log(x + y) + d;
  }
  double d = stirlingDelta(x) + stirlingDelta(y) - stirlingDelta(x + y);
  return kHalfLog2Pi - (x - 0.5) * std::log1p(y / x) - (y - 0.5) * std::log1p(x / y) - 0.5 * std::log(x + y) +
         d;
}

}  // namespace pvi::kern
