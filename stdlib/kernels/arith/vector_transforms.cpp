// Constrained vectors from unconstrained space, with their log-Jacobians (Stan's reference
// manual, "Constraint transforms"). Each kernel handles n values laid out as vectors of length
// k (an array of vectors: each vector contiguous), k passed as a real in kp[0]:
//   simplex:          n outputs from n / k * (k - 1) inputs, by stick-breaking:
//                     z_i = inv_logit(y_i - log(k - i)), x_i = s_{i-1} z_i, s_i = s_{i-1} - x_i
//                     (s_0 = 1, x_k = s_{k-1}); log|J| = sum_i log z_i + log(1 - z_i) + log s_{i-1}
//   ordered:          x_1 = y_1, x_i = x_{i-1} + exp(y_i);  log|J| = sum_{i>1} y_i
//   positive_ordered: x_1 = exp(y_1), then as ordered;      log|J| = sum_i y_i
#include <cmath>

#include "stdlib/kernels/arith/arith.h"

namespace {

// The vector length; at least 1, so that an empty simplex or ordered vector (n = 0) divides safely.
int64_t lengthOf(const double* kp) { return kp[0] >= 1.0 ? static_cast<int64_t>(kp[0]) : 1; }

double invLogit(double u) { return u >= 0 ? 1.0 / (1.0 + std::exp(-u)) : std::exp(u) / (1.0 + std::exp(u)); }
// log(inv_logit(u)) + log(1 - inv_logit(u)) = -|u| - 2 log1p(exp(-|u|))
double logSigmoidProduct(double u) { return -std::fabs(u) - 2.0 * std::log1p(std::exp(-std::fabs(u))); }

double simplexOne(int64_t k, const double* y, double* x) {
  double stick = 1.0, lj = 0.0;
  for (int64_t i = 0; i + 1 < k; ++i) {
    const double a = y[i] - std::log(static_cast<double>(k - 1 - i));
    const double z = invLogit(a);
    lj += logSigmoidProduct(a) + std::log(stick);
    x[i] = stick * z;
    stick -= x[i];
  }
  x[k - 1] = stick;
  return lj;
}

// Reverse pass of simplexOne. The backward sweep needs each break's stick s_{i-1} and z_i; they
// are recomputed forward in chunks of 64 kept on the stack, from the back (one pass for k <= 65,
// no allocation).
void simplexOneGrad(int64_t k, const double* y, const double* g_x, double g_lj, double* g_y) {
  double stickAdj = g_x[k - 1];  // adjoint of s_{k-1} = x_k
  constexpr int64_t kChunk = 64;
  double sticks[kChunk], zs[kChunk];
  const int64_t m = k - 1;  // number of breaks
  for (int64_t end = m; end > 0; end -= kChunk) {
    const int64_t begin = end > kChunk ? end - kChunk : 0;
    double stick = 1.0;
    for (int64_t i = 0; i < begin; ++i) stick *= 1.0 - invLogit(y[i] - std::log(static_cast<double>(k - 1 - i)));
    for (int64_t i = begin; i < end; ++i) {
      const double z = invLogit(y[i] - std::log(static_cast<double>(k - 1 - i)));
      sticks[i - begin] = stick;
      zs[i - begin] = z;
      stick *= 1.0 - z;
    }
    for (int64_t i = end; i-- > begin;) {
      const double s = sticks[i - begin], z = zs[i - begin];
      // x_i = s z, s_i = s (1 - z), lj_i = log z + log(1 - z) + log s
      const double zAdj = g_x[i] * s - stickAdj * s;
      g_y[i] += zAdj * z * (1.0 - z) + g_lj * (1.0 - 2.0 * z);
      stickAdj = g_x[i] * z + stickAdj * (1.0 - z) + g_lj / s;
    }
  }
}

double orderedOne(int64_t k, const double* y, double* x, bool positive) {
  double lj = positive ? y[0] : 0.0;
  x[0] = positive ? std::exp(y[0]) : y[0];
  for (int64_t i = 1; i < k; ++i) {
    x[i] = x[i - 1] + std::exp(y[i]);
    lj += y[i];
  }
  return lj;
}

void orderedOneGrad(int64_t k, const double* y, const double* g_x, double g_lj, double* g_y, bool positive) {
  double acc = 0.0;  // adjoint of x_i: the sum of g_x over i and after (x_j depends on x_i for j >= i)
  for (int64_t i = k; i-- > 1;) {
    acc += g_x[i];
    g_y[i] += acc * std::exp(y[i]) + g_lj;
  }
  acc += g_x[0];
  g_y[0] += positive ? acc * std::exp(y[0]) + g_lj : acc;
}

}  // namespace

extern "C" {

double pvi_tf_simplex(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = lengthOf(kp);
  double lj = 0.0;
  for (int64_t v = 0; v < n / k; ++v) lj += simplexOne(k, u + v * (k - 1), out + v * k);
  return lj;
}
void pvi_tf_simplex_grad(int64_t n, const double* u, const double* kp, int64_t, const double*, const double* g_out,
                         double g_lj, double* g_u, double*) {
  const int64_t k = lengthOf(kp);
  for (int64_t v = 0; v < n / k; ++v) simplexOneGrad(k, u + v * (k - 1), g_out + v * k, g_lj, g_u + v * (k - 1));
}

double pvi_tf_ordered(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = lengthOf(kp);
  double lj = 0.0;
  for (int64_t v = 0; v < n / k; ++v) lj += orderedOne(k, u + v * k, out + v * k, false);
  return lj;
}
void pvi_tf_ordered_grad(int64_t n, const double* u, const double* kp, int64_t, const double*, const double* g_out,
                         double g_lj, double* g_u, double*) {
  const int64_t k = lengthOf(kp);
  for (int64_t v = 0; v < n / k; ++v) orderedOneGrad(k, u + v * k, g_out + v * k, g_lj, g_u + v * k, false);
}

double pvi_tf_positive_ordered(int64_t n, const double* u, const double* kp, int64_t, double* out) {
  const int64_t k = lengthOf(kp);
  double lj = 0.0;
  for (int64_t v = 0; v < n / k; ++v) lj += orderedOne(k, u + v * k, out + v * k, true);
  return lj;
}
void pvi_tf_positive_ordered_grad(int64_t n, const double* u, const double* kp, int64_t, const double*,
                                  const double* g_out, double g_lj, double* g_u, double*) {
  const int64_t k = lengthOf(kp);
  for (int64_t v = 0; v < n / k; ++v) orderedOneGrad(k, u + v * k, g_out + v * k, g_lj, g_u + v * k, true);
}

// Inverses: n unconstrained outputs (simplex: n / (k - 1) vectors). A simplex needs elements > 0
// summing to 1 within 1e-8; ordered vectors strictly increasing elements; positive_ordered a
// first element > 0 too.
int64_t pvi_tf_simplex_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = lengthOf(kp);
  // simplex[1] is the constant [1]: no unconstrained values (n = 0), nothing to check here.
  for (int64_t v = 0; k > 1 && v < n / (k - 1); ++v) {
    const double* xv = x + v * k;
    double* uv = u + v * (k - 1);
    double total = 0.0;
    for (int64_t i = 0; i < k; ++i) {
      if (!(xv[i] > 0.0)) return v * k + i + 1;
      total += xv[i];
    }
    if (!(std::fabs(total - 1.0) <= 1e-8)) return v * k + 1;
    // The stick left before break i is x_i + ... + x_k, summed from the back (as Stan's
    // simplex_free), so that z_i = x_i / stick < 1 even where the x sum to 1 only within 1e-8.
    double rest = xv[k - 1];
    for (int64_t i = k - 1; i-- > 0;) {
      const double stick = rest + xv[i];
      uv[i] = std::log(xv[i]) - std::log(rest) + std::log(static_cast<double>(k - 1 - i));
      rest = stick;
    }
  }
  return 0;
}

int64_t pvi_tf_ordered_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = lengthOf(kp);
  for (int64_t v = 0; v < n / k; ++v) {
    const double* xv = x + v * k;
    if (!std::isfinite(xv[0])) return v * k + 1;
    u[v * k] = xv[0];
    for (int64_t i = 1; i < k; ++i) {
      if (!(xv[i] > xv[i - 1]) || !std::isfinite(xv[i])) return v * k + i + 1;
      u[v * k + i] = std::log(xv[i] - xv[i - 1]);
    }
  }
  return 0;
}

int64_t pvi_tf_positive_ordered_inv(int64_t n, const double* x, const double* kp, int64_t, double* u) {
  const int64_t k = lengthOf(kp);
  for (int64_t v = 0; v < n / k; ++v)
    if (!(x[v * k] > 0.0)) return v * k + 1;
  const int64_t status = pvi_tf_ordered_inv(n, x, kp, 0, u);
  if (status != 0) return status;
  for (int64_t v = 0; v < n / k; ++v) u[v * k] = std::log(x[v * k]);
  return 0;
}

}  // extern "C"
