#pragma once
// Saddle-point evaluation of binomial and Poisson log probabilities (C. Loader, "Fast and accurate
// computation of binomial probabilities", 2000), also used by the gamma, inverse-gamma, beta and
// Dirichlet densities for large shapes. The direct forms
// (lchoose + y log p + (N - y) log q, y log lambda - lambda - lgamma(y + 1)) subtract terms of
// size N log N to get an O(log N) result and lose about log10(N) digits for large counts; these
// forms only combine O(1) quantities. Not part of the C interface.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

namespace pvi::kern {

// Stirling error: lgamma(n + 1) - ((n + 1/2) log n - n + log(2 pi)/2), n >= 0 (0 at n = 0 by
// convention; the callers never use it there).
inline double stirlerr(double n) {
  static constexpr double kHalves[31] = {
      0.0,
      0.1534264097200273452913839,
      0.08106146679532725821967026,
      0.0548141210519176538961387,
      0.04134069595540929409382208,
      0.03316287351993628748511051,
      0.02767792568499833914878929,
      0.02374616365629749597133028,
      0.02079067210376509311152277,
      0.01848845053267318523077936,
      0.01664469118982119216319487,
      0.01513497322191737887351384,
      0.01387612882307074799874573,
      0.01281046524292022692425066,
      0.01189670994589177009505572,
      0.01110455975820691732663076,
      0.01041126526197209649747857,
      0.009799416126158803298390373,
      0.009255462182712732917728637,
      0.008768700134139385462955047,
      0.008330563433362871256469319,
      0.007934114564314020547249562,
      0.007573675487951840794972024,
      0.007244554301320383179546197,
      0.006942840107209529865664153,
      0.006665247032707682442356181,
      0.006408994188004207068439631,
      0.006171712263039457647534605,
      0.005951370112758847735624416,
      0.005746216513010115682026102,
      0.00555473355196280137103869,
  };
  if (n <= 15.0) {
    double nn = n + n;
    if (nn == std::floor(nn)) return kHalves[static_cast<int>(nn)];
    return lgam(n + 1.0) - (n + 0.5) * std::log(n) + n - kHalfLog2Pi;
  }
  double r = 1.0 / n, r2 = r * r;
  // Asymptotic series; the first omitted term is < 2e-17 at n = 15.
  return r * (1.0 / 12 + r2 * (-1.0 / 360 + r2 * (1.0 / 1260 + r2 * (-1.0 / 1680 + r2 * (1.0 / 1188)))));
}

// Deviance term bd0(x, np) = x log(x / np) + np - x, x >= 0, np > 0, by a series when x is close
// to np (where the direct form cancels).
inline double bd0(double x, double np) {
  double d = x - np;
  if (std::fabs(d) < 0.1 * (x + np)) {
    double v = d / (x + np);
    double s = d * v;
    double ej = 2.0 * x * v;
    double v2 = v * v;
    for (int j = 1; j < 1000; ++j) {
      ej *= v2;
      double s1 = s + ej / (2 * j + 1);
      if (s1 == s) return s1;
      s = s1;
    }
    return s;
  }
  return x * std::log(x / np) + np - x;
}

// log of C(n, x) p^x q^(n - x) for real 0 <= x <= n, given n - x = nmx exactly (n itself may be
// rounded, e.g. n = phi + y for the negative binomial) and p + q = 1 separately (so that
// whichever is small is exact).
inline double logBinomRaw(double x, double n, double nmx, double p, double q) {
  if (p == 0.0) return x == 0.0 ? 0.0 : -INFINITY;
  if (q == 0.0) return nmx == 0.0 ? 0.0 : -INFINITY;
  if (x == 0.0) {
    if (n == 0.0) return 0.0;
    return p < 0.1 ? -bd0(n, n * q) - n * p : n * std::log(q);
  }
  if (nmx == 0.0) return q < 0.1 ? -bd0(n, n * p) - n * q : n * std::log(p);
  double lc = stirlerr(n) - stirlerr(x) - stirlerr(nmx) - bd0(x, n * p) - bd0(nmx, n * q);
  double lf = kLog2Pi + std::log(x) + std::log(nmx / n);
  return lc - 0.5 * lf;
}

// log1p(t) - t, accurate for small |t| (t > -1).
inline double log1pmx(double t) {
  if (std::fabs(t) < 1e-2) {
    // -t^2/2 + t^3/3 - ... ; |t|^10/10 < 1e-21 is below the rounding of the t^2 term.
    double r = 0.0;
    for (int j = 9; j >= 2; --j) r = t * ((j % 2 ? 1.0 : -1.0) / j + r);
    return t * r;
  }
  return std::log1p(t) - t;
}

// log of lambda^x exp(-lambda) / x!, x >= 0 integer-valued, lambda >= 0.
inline double logPoisRaw(double x, double lambda) {
  if (x == 0.0) return -lambda;
  if (lambda == 0.0) return -INFINITY;
  return -stirlerr(x) - bd0(x, lambda) - 0.5 * (kLog2Pi + std::log(x));
}

}  // namespace pvi::kern
