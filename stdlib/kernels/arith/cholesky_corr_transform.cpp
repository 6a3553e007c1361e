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

namespace {

int64_t orderOf(const double* kp) { return kp[0] >= 1.0 ? static_cast<int64_t>(kp[0]) : 1; }
int64_t valuesPerMatrix(int64_t k) { return k * (k - 1) / 2; }

// log(1 - tanh(y)^2) = log 4 - 2|y| - 2 log1p(exp(-2|y|)), finite for every finite y.
double logSech2(double y) {
  const double a = std::fabs(y);
  return std::log(4.0) - 2.0 * a - 2.0 * std::log1p(std::exp(-2.0 * a));
}

// One matrix: y holds its K (K - 1) / 2 values, L its K^2 elements (column-major).
double choleskyCorrOne(int64_t k, const double* y, double* L) {
  for (int64_t e = 0; e < k * k; ++e) L[e] = 0.0;
  L[0] = 1.0;
  double lj = 0.0;
  for (int64_t i = 1, v = 0; i < k; ++i) {
    double sum = 0.0;  // of the squares of row i so far
    for (int64_t j = 0; j < i; ++j, ++v) {
      const double z = std::tanh(y[v]);
      lj += logSech2(y[v]);
      double x = z;
      if (j > 0) {
        lj += 0.5 * std::log1p(-sum);
        x = z * std::sqrt(1.0 - sum);
      }
      L[i + j * k] = x;
      sum += x * x;
    }
    L[i + i * k] = std::sqrt(std::fmax(1.0 - sum, 0.0));
  }
  return lj;
}

// Reverse pass of choleskyCorrOne, row by row (each row depends on its own values only). The
// running sums of a row are recomputed forward into `sums`.
void choleskyCorrOneGrad(int64_t k, const double* y, const double* g_L, double g_lj, double* g_y,
                         std::vector<double>& sums) {
  sums.resize(static_cast<size_t>(k));
  for (int64_t i = 1, first = 0; i < k; first += i, ++i) {
    const double* yr = y + first;
    double sum = 0.0;
    for (int64_t j = 0; j < i; ++j) {
      sums[static_cast<size_t>(j)] = sum;  // before element j
      const double z = std::tanh(yr[j]);
      const double x = j == 0 ? z : z * std::sqrt(1.0 - sum);
      sum += x * x;
    }
    const double diagonal = std::sqrt(std::fmax(1.0 - sum, 0.0));
    double sumAdj = diagonal > 0.0 ? -0.5 * g_L[i + i * k] / diagonal : 0.0;  // adjoint of the row's sum
    for (int64_t j = i; j-- > 0;) {
      const double s = sums[static_cast<size_t>(j)];
      const double z = std::tanh(yr[j]);
      const double r = j == 0 ? 1.0 : std::sqrt(1.0 - s);
      const double x = z * r;
      const double xAdj = g_L[i + j * k] + 2.0 * x * sumAdj;  // sum_{after j} = s + x^2
      const double zAdj = xAdj * r;
      if (j > 0) sumAdj += -0.5 * xAdj * z / r - 0.5 * g_lj / (1.0 - s);
      g_y[first + j] += zAdj * (1.0 - z * z) - 2.0 * z * g_lj;
    }
  }
}

}  // namespace

extern "C" {

double pvi_tf_cholesky_factor_corr(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = orderOf(kp);
  double lj = 0.0;
  for (int64_t m = 0; m < n / (k * k); ++m) lj += choleskyCorrOne(k, u + m * valuesPerMatrix(k), out + m * k * k);
  return lj;
}

void pvi_tf_cholesky_factor_corr_grad(int64_t n, const double* u, const double* kp, int64_t, const double*,
                                      const double* g_out, double g_lj, double* g_u, double*) {
  const int64_t k = orderOf(kp);
  std::vector<double> sums;
  for (int64_t m = 0; m < n / (k * k); ++m)
    choleskyCorrOneGrad(k, u + m * valuesPerMatrix(k), g_out + m * k * k, g_lj, g_u + m * valuesPerMatrix(k), sums);
}

// n unconstrained outputs (n / (K (K - 1) / 2) matrices read). A Cholesky factor of a correlation
// matrix is lower triangular with a positive diagonal and rows of unit length within 1e-8 (Stan's
// check); returns 0, or 1 + the (column-major) index of the first element that breaks it.
int64_t pvi_tf_cholesky_factor_corr_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = orderOf(kp);
  const int64_t per = valuesPerMatrix(k);
  for (int64_t m = 0; per > 0 && m < n / per; ++m) {
    const double* L = x + m * k * k;
    double* um = u + m * per;
    for (int64_t i = 0, v = 0; i < k; ++i) {
      for (int64_t j = i + 1; j < k; ++j)
        if (L[i + j * k] != 0.0) return m * k * k + i + j * k + 1;
      if (!(L[i + i * k] > 0.0)) return m * k * k + i + i * k + 1;
      double sum = 0.0;
      for (int64_t j = 0; j < i; ++j, ++v) {
        const double z = j == 0 ? L[i] : L[i + j * k] / std::sqrt(1.0 - sum);
        if (!(std::fabs(z) < 1.0)) return m * k * k + i + j * k + 1;
        um[v] = std::atanh(z);
        sum += L[i + j * k] * L[i + j * k];
      }
      if (!(std::fabs(sum + L[i + i * k] * L[i + i * k] - 1.0) <= 1e-8)) return m * k * k + i + i * k + 1;
    }
  }
  return 0;
}

}  // extern "C"
