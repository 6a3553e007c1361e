// binomial_logit(y | N, alpha) = binomial(y | N, inv_logit(alpha)): value and gradient.
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"

using namespace pvi::kern;

extern "C" double pvi_binomial_logit_lpmf(int64_t n, const int64_t* y, int64_t s_y, const int64_t* N, int64_t s_N,
                                          const double* alpha, int64_t s_alpha) {
  return pvi_binomial_logit_lpmf_grad(0.0, n, y, s_y, N, s_N, alpha, s_alpha, nullptr);
}

// p = inv_logit(alpha) and q = inv_logit(-alpha) are both formed directly (neither as 1 - the
// other), then Loader's saddle-point form (saddle_point.hpp). When |alpha| > 690 one of them is
// subnormal or zero; then log p = -softplus(-alpha) and log q = -softplus(alpha) are used in the
// direct form lchoose(N, y) + y log p + (N - y) log q.
// d/dalpha = y q - (N - y) p  (= y - N p).
extern "C" double pvi_binomial_logit_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y,
                                               const int64_t* N, int64_t s_N, const double* alpha, int64_t s_alpha,
                                               double* g_alpha) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y], Ni = N[i * s_N];
    double ai = alpha[i * s_alpha];
    if (!isFinite(ai) || yi < 0 || yi > Ni) return -INFINITY;
    double yd = static_cast<double>(yi), fd = static_cast<double>(Ni - yi), Nd = static_cast<double>(Ni);
    double p = invLogit(ai), q = invLogit(-ai);
    if (std::fabs(ai) <= 690.0) {
      lp += logBinomRaw(yd, Nd, fd, p, q);
    } else {
      double lchoose = lgam(Nd + 1.0) - lgam(yd + 1.0) - lgam(fd + 1.0);
      lp += lchoose - (yi > 0 ? yd * softplus(-ai) : 0.0) - (Ni > yi ? fd * softplus(ai) : 0.0);
    }
    if (g_alpha) g_alpha[i * s_alpha] += adj * (yd * q - fd * p);
  }
  return lp;
}
