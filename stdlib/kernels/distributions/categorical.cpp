// categorical(y | theta): value and gradient. y in 1..k, theta the k probabilities (shared by all
// n outcomes), on the simplex as Stan requires: every theta_j in [0, 1] and |sum - 1| <= 1e-8.
// The value is -inf outside (Stan rejects such a theta).
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

extern "C" double pvi_categorical_lpmf(int64_t n, const int64_t* y, int64_t s_y, int64_t k, const double* theta) {
  return pvi_categorical_lpmf_grad(0.0, n, y, s_y, k, theta, nullptr);
}

// log p = sum_i log theta[y_i - 1];  d/dtheta_j = #{i : y_i = j + 1} / theta_j (the gradient with
// the theta_j as independent coordinates: the simplex is the caller's transform).
extern "C" double pvi_categorical_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y, int64_t k,
                                            const double* theta, double* g_theta) {
  if (n <= 0) return 0.0;
  if (k < 1) return -INFINITY;
  double sum = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    if (!(theta[j] >= 0.0 && theta[j] <= 1.0)) return -INFINITY;
    sum += theta[j];
  }
  if (!(std::fabs(sum - 1.0) <= 1e-8)) return -INFINITY;
  const int64_t count = s_y == 0 ? 1 : n;  // a scalar outcome repeated n times
  const double times = s_y == 0 ? static_cast<double>(n) : 1.0;
  double lp = 0.0;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t yi = y[i * s_y];
    if (yi < 1 || yi > k) return -INFINITY;
    lp += times * std::log(theta[yi - 1]);
  }
  if (g_theta)
    for (int64_t i = 0; i < count; ++i) g_theta[y[i * s_y] - 1] += adj * times / theta[y[i * s_y] - 1];
  return lp;
}
