// cholesky_factor_corr[K]: the Cholesky factor L of a K x K correlation matrix from K (K - 1) / 2
// unconstrained values, with its log-Jacobian (Stan's reference manual, "Cholesky factors of
// correlation matrices"). The values fill the strictly lower triangle row by row: (2,1), (3,1),
// (3,2), (4,1), ... Each is a canonical partial correlation z = tanh(y), and row i of L is
//   L[i,1] = z_i1,  L[i,j] = z_ij sqrt(1 - sum_{l<j} L[i,l]^2),  L[i,i] = sqrt(1 - sum_{l<i} L[i,l]^2)
// (L[1,1] = 1, zero above the diagonal), so every row has unit length. log|J| is
//   sum over the values of log(1 - z^2), plus 1/2 log(1 - sum_{l<j} L[i,l]^2) for each j > 1.
// Each kernel handles n = m K^2 outputs (m matrices, each column-major and contiguous), K passed as
// a real in kp[0], as the constrained vector transforms (vector_transforms.cpp).
#include <cmath>
#include <vector>

#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/arith/cholesky_corr.hpp"

using namespace pvi::kern;

extern "C" {

double pvi_tf_cholesky_factor_corr(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = orderOf(kp);
  double lj = 0.0;
  for (int64_t m = 0; m < n / (k * k); ++m) lj += choleskyCorrOne(k, u + m * belowDiagonalCount(k), out + m * k * k);
  return lj;
}

void pvi_tf_cholesky_factor_corr_grad(int64_t n, const double* u, const double* kp, int64_t, const double*,
                                      const double* g_out, double g_lj, double* g_u, double*) {
  const int64_t k = orderOf(kp);
  std::vector<double> sums;
  for (int64_t m = 0; m < n / (k * k); ++m)
    choleskyCorrOneGrad(k, u + m * belowDiagonalCount(k), g_out + m * k * k, g_lj, g_u + m * belowDiagonalCount(k), sums);
}

// n unconstrained outputs (n / (K (K - 1) / 2) matrices read); returns 0, or 1 + the
// (column-major) index of the first element that is not that of such a factor.
int64_t pvi_tf_cholesky_factor_corr_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = orderOf(kp);
  const int64_t per = belowDiagonalCount(k);
  for (int64_t m = 0; per > 0 && m < n / per; ++m)
    if (const int64_t bad = choleskyCorrOneInv(k, x + m * k * k, u + m * per)) return m * k * k + bad;
  return 0;
}

}  // extern "C"
