#pragma once
// Shared by multi_normal.cpp and multi_normal_cholesky.cpp: the loop over n variates given the
// covariance's lower Cholesky factor L. y and mu are each one k-vector (stride 0) or n of them
// side by side (stride k), as an array of vectors is laid out.
#include <cstdint>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/kernel_support.hpp"

namespace pvi::kern {

// Whether every element of the n variates and their means is finite.
inline bool mvnVariatesFinite(int64_t n, int64_t k, const double* y, int64_t s_y, const double* mu, int64_t s_mu) {
  for (int64_t m = 0; m < n; ++m)
    for (int64_t i = 0; i < k; ++i)
      if (!isFinite(y[m * s_y + i]) || !isFinite(mu[m * s_mu + i])) return false;
  return true;
}

// sum_m |z_m|^2 with z_m = L^{-1} (y_m - mu_m). With `gradient`, also a_m = L^{-T} z_m, adds
// -adj a_m to g_y's and adj a_m to g_mu's element m (when given) and calls perVariate(z_m, a_m).
// z and a are scratch of k doubles each.
template <class PerVariate>
double mvnQuadraticForms(int64_t n, int64_t k, const double* L, const double* y, int64_t s_y, const double* mu,
                         int64_t s_mu, bool gradient, double adj, double* g_y, double* g_mu, double* z, double* a,
                         PerVariate&& perVariate) {
  double q = 0.0;
  for (int64_t m = 0; m < n; ++m) {
    const double* ym = y + m * s_y;
    const double* mum = mu + m * s_mu;
    for (int64_t i = 0; i < k; ++i) z[i] = ym[i] - mum[i];
    forwardSolve(k, L, z);
    for (int64_t i = 0; i < k; ++i) q += z[i] * z[i];
    if (!gradient) continue;
    for (int64_t i = 0; i < k; ++i) a[i] = z[i];
    backSolveTransposed(k, L, a);
    for (int64_t i = 0; i < k; ++i) {
      if (g_y) g_y[m * s_y + i] -= adj * a[i];
      if (g_mu) g_mu[m * s_mu + i] += adj * a[i];
    }
    perVariate(z, a);
  }
  return q;
}

}  // namespace pvi::kern
