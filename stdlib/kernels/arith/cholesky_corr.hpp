#pragma once
// The Cholesky factor of a correlation matrix from its canonical partial correlations, shared by
// cholesky_factor_corr[K] (cholesky_corr_transform.cpp) and corr_matrix[K]
// (matrix_transforms.cpp); the map and its log-Jacobian are described there.
#include <cmath>
#include <cstdint>
#include <vector>

namespace pvi::kern {

inline int64_t orderOf(const double* kp) { return kp[0] >= 1.0 ? static_cast<int64_t>(kp[0]) : 1; }
inline int64_t belowDiagonalCount(int64_t k) { return k * (k - 1) / 2; }

// log(1 - tanh(y)^2) = log 4 - 2|y| - 2 log1p(exp(-2|y|)), finite for every finite y.
inline double logSech2(double y) {
  const double a = std::fabs(y);
  return std::log(4.0) - 2.0 * a - 2.0 * std::log1p(std::exp(-2.0 * a));
}

// One matrix: y holds its K (K - 1) / 2 values, L its K^2 elements (column-major).
inline double choleskyCorrOne(int64_t k, const double* y, double* L) {
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
inline void choleskyCorrOneGrad(int64_t k, const double* y, const double* g_L, double g_lj, double* g_y,
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

// The inverse for one matrix: a Cholesky factor of a correlation matrix is lower triangular with a
// positive diagonal and rows of unit length within 1e-8 (Stan's check). Writes its K (K - 1) / 2
// values to y; returns 0, or 1 + the (column-major) index of the first element that breaks it.
inline int64_t choleskyCorrOneInv(int64_t k, const double* L, double* y) {
  for (int64_t i = 0, v = 0; i < k; ++i) {
    for (int64_t j = i + 1; j < k; ++j)
      if (L[i + j * k] != 0.0) return i + j * k + 1;
    if (!(L[i + i * k] > 0.0)) return i + i * k + 1;
    double sum = 0.0;
    for (int64_t j = 0; j < i; ++j, ++v) {
      const double z = j == 0 ? L[i] : L[i + j * k] / std::sqrt(1.0 - sum);
      if (!(std::fabs(z) < 1.0)) return i + j * k + 1;
      y[v] = std::atanh(z);
      sum += L[i + j * k] * L[i + j * k];
    }
    if (!(std::fabs(sum + L[i + i * k] * L[i + i * k] - 1.0) <= 1e-8)) return i + i * k + 1;
  }
  return 0;
}

}  // namespace pvi::kern
