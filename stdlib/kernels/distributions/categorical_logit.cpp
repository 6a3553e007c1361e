// categorical_logit(y | beta): value and gradient. y in 1..k, beta the k logits (shared by all n
// outcomes).
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_categorical_logit_lpmf(int64_t n, const int64_t* y, int64_t s_y, int64_t k,
                                             const double* beta) {
  return pvi_categorical_logit_lpmf_grad(0.0, n, y, s_y, k, beta, nullptr);
}

// log p = sum_i beta[y_i - 1] - n log_sum_exp(beta);
// d/dbeta_j = #{i : y_i = j + 1} - n softmax(beta)_j.
extern "C" double pvi_categorical_logit_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, int64_t k,
                                                  const double* beta, double* g_beta) {
  if (n <= 0) return 0.0;
  if (k < 1) return -INFINITY;
  double m = -INFINITY;
  for (int64_t j = 0; j < k; ++j) {
    if (!isFinite(beta[j])) return -INFINITY;
    m = std::fmax(m, beta[j]);
  }
  double s = 0.0;
  for (int64_t j = 0; j < k; ++j) s += std::exp(beta[j] - m);
  double lse = m + std::log(s);
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y];
    if (yi < 1 || yi > k) return -INFINITY;
    lp += beta[yi - 1];
    if (s_y == 0) {
      lp *= static_cast<double>(n);
      break;
    }
  }
  lp -= static_cast<double>(n) * lse;
  if (g_beta) {
    double dn = static_cast<double>(n);
    if (s_y == 0)
      g_beta[y[0] - 1] += adj * dn;
    else
      for (int64_t i = 0; i < n; ++i) g_beta[y[i] - 1] += adj;
    double f = adj * dn / s;
    for (int64_t j = 0; j < k; ++j) g_beta[j] -= f * std::exp(beta[j] - m);
  }
  return lp;
}
