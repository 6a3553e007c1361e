// dirichlet(theta | alpha): value and gradient. theta on the simplex (theta_i > 0, |sum - 1| <=
// 1e-8), alpha_i > 0.
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" double pvi_dirichlet_lpdf(int64_t k, const double* theta, const double* alpha) {
  return pvi_dirichlet_lpdf_grad(0.0, k, theta, alpha, nullptr, nullptr);
}

// log p = lgamma(A) - sum lgamma(alpha_i) + sum (alpha_i - 1) log(theta_i), A = sum alpha.
// For large concentrations the terms (A log A ~ 6e7 for A = 4e6) cancel to an O(k log A) value.
// With lgamma(x) = (x - 1/2) log x - x + log(2 pi)/2 + stirlerr(x) and S = sum theta, exactly:
//   log p = sum_i [-bd0(alpha_i, A theta_i) + log(alpha_i)/2 - log(theta_i) - stirlerr(alpha_i)]
//           + A (S - 1) - log(A)/2 + stirlerr(A) - (k - 1) log(2 pi)/2
// (bd0(x, m) = x log(x/m) + m - x, saddle_point.hpp), which only combines O(log) quantities; the
// direct form is kept for when some A theta_i under- or overflows.
// The gradient is that of this formula with the theta_i treated as independent coordinates
// (the simplex constraint is the caller's business, e.g. a stick-breaking transform):
//   d/dtheta_i = (alpha_i - 1)/theta_i,  d/dalpha_i = digamma(sum alpha) - digamma(alpha_i) + log(theta_i).
extern "C" double pvi_dirichlet_lpdf_grad(double adj, int64_t k, const double* theta, const double* alpha,
                                          double* g_theta, double* g_alpha) {
  double sum_theta = 0.0, sum_alpha = 0.0;
  for (int64_t i = 0; i < k; ++i) {
    if (!(theta[i] > 0.0) || !isFinite(theta[i]) || !positiveFinite(alpha[i])) return -INFINITY;
    sum_theta += theta[i];
    sum_alpha += alpha[i];
  }
  if (!(std::fabs(sum_theta - 1.0) <= 1e-8) || !isFinite(sum_alpha)) return -INFINITY;
  double lp = sum_alpha * (sum_theta - 1.0) - 0.5 * std::log(sum_alpha) + stirlerr(sum_alpha) -
              0.5 * static_cast<double>(k - 1) * kLog2Pi;
  bool direct = false;
  for (int64_t i = 0; i < k; ++i) {
    double m = sum_alpha * theta[i];
    if (!(m > 0.0) || !(m < INFINITY)) {
      direct = true;
      break;
    }
    lp += -bd0(alpha[i], m) + 0.5 * std::log(alpha[i]) - std::log(theta[i]) - stirlerr(alpha[i]);
  }
  if (direct) {
    lp = lgam(sum_alpha);
    for (int64_t i = 0; i < k; ++i) lp += (alpha[i] - 1.0) * std::log(theta[i]) - lgam(alpha[i]);
  }
  if (g_theta)
    for (int64_t i = 0; i < k; ++i) g_theta[i] += adj * (alpha[i] - 1.0) / theta[i];
  if (g_alpha) {
    double dg_sum = digamma(sum_alpha);
    for (int64_t i = 0; i < k; ++i) g_alpha[i] += adj * (dg_sum - digamma(alpha[i]) + std::log(theta[i]));
  }
  return lp;
}
