// bernoulli_logit(y | alpha) = bernoulli(y | inv_logit(alpha)): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"
#include "stdlib/kernels/simd/simd_loops.hpp"

using namespace pvi::kern;

extern "C" double pvi_bernoulli_logit_lpmf(int64_t n, const int64_t* y, int64_t s_y, const double* alpha,
                                           int64_t s_alpha) {
  return pvi_bernoulli_logit_lpmf_grad(0.0, n, y, s_y, alpha, s_alpha, nullptr);
}

// With s = 2y - 1: log p = log_inv_logit(s alpha) = -softplus(-s alpha) = -(max(-s alpha, 0) +
// log1p(exp(-|alpha|))), which neither overflows nor rounds exp(-|alpha|) away.
// d/dalpha = s inv_logit(-s alpha) (= y - inv_logit(alpha), without forming 1 - inv_logit).
extern "C" double pvi_bernoulli_logit_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y,
                                                const double* alpha, int64_t s_alpha, double* g_alpha) {
  if (s_y == 1 && s_alpha == 1) return simdLoops().bernoulliLogit(adj, n, y, alpha, g_alpha);
  // Every point is checked before any gradient is written, as the vector loops do: -inf leaves
  // g_alpha as it was.
  for (int64_t i = 0; i < n; ++i) {
    const int64_t yi = y[i * s_y];
    if (!isFinite(alpha[i * s_alpha]) || (yi != 0 && yi != 1)) return -INFINITY;
  }
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y];
    double ai = alpha[i * s_alpha];
    double sa = yi == 1 ? ai : -ai;
    double e = std::exp(-std::fabs(ai));
    lp -= std::fmax(-sa, 0.0) + std::log1p(e);
    if (g_alpha) {
      double p_other = sa >= 0.0 ? e / (1.0 + e) : 1.0 / (1.0 + e);  // inv_logit(-sa)
      g_alpha[i * s_alpha] += adj * (yi == 1 ? p_other : -p_other);
    }
  }
  return lp;
}
