// Element-wise arithmetic with broadcasting: value and gradient side by side.
#include <algorithm>
#include <cmath>

#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/simd/simd_loops.hpp"

namespace {

// The gradient of an element-wise operation for one operand: g_x[i * s] += d[i], where d[i] is
// its partial derivative times g_out[i]. A broadcast operand (s == 0) sums in a register
// instead of storing to the same address n times, and the contiguous case vectorises.
template <class Partial>
inline void accumulate(int64_t n, int64_t s, double* g, Partial partial) {
  if (g == nullptr) return;
  if (s == 0) {
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += partial(i);
    g[0] += sum;
  } else {
    for (int64_t i = 0; i < n; ++i) g[i] += partial(i);
  }
}

// out[i] = f(a[i * sa], b[i * sb]) with the stride cases split so each loop vectorises.
template <class F>
inline void apply(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out, F f) {
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (sa == 0 && sb == 1) {
    const double x = a[0];
    for (int64_t i = 0; i < n; ++i) out[i] = f(x, b[i]);
  } else if (sa == 1 && sb == 0) {
    const double y = b[0];
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], y);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i * sa], b[i * sb]);
  }
}

// The gradients of contiguous or broadcast operands go to the vector loops of simd_loops.hpp
// (their sums; the forward loops below vectorise as they are).
bool contiguousOrBroadcast(int64_t s) { return s == 0 || s == 1; }

// g[i sg] += sign g_out[i] v[i sv] (v null: 1) for an operand of stride sg.
bool simdAccumulate(int64_t n, double* g, int64_t sg, double sign, const double* g_out, const double* v, int64_t sv) {
  if (g == nullptr) return true;
  if (!contiguousOrBroadcast(sg) || !contiguousOrBroadcast(sv)) return false;
  pvi::kern::simdLoops().accumulate(n, g, sg, sign, g_out, v, sv);
  return true;
}

}  // namespace

extern "C" {

void pvi_ew_add(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  apply(n, a, sa, b, sb, out, [](double x, double y) { return x + y; });
}
void pvi_ew_add_grad(int64_t n, const double*, int64_t sa, const double*, int64_t sb, const double*,
                     const double* g_out, double* g_a, double* g_b) {
  if (!simdAccumulate(n, g_a, sa, 1.0, g_out, nullptr, 0)) accumulate(n, sa, g_a, [&](int64_t i) { return g_out[i]; });
  if (!simdAccumulate(n, g_b, sb, 1.0, g_out, nullptr, 0)) accumulate(n, sb, g_b, [&](int64_t i) { return g_out[i]; });
}

void pvi_ew_sub(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  apply(n, a, sa, b, sb, out, [](double x, double y) { return x - y; });
}
void pvi_ew_sub_grad(int64_t n, const double*, int64_t sa, const double*, int64_t sb, const double*,
                     const double* g_out, double* g_a, double* g_b) {
  if (!simdAccumulate(n, g_a, sa, 1.0, g_out, nullptr, 0)) accumulate(n, sa, g_a, [&](int64_t i) { return g_out[i]; });
  if (!simdAccumulate(n, g_b, sb, -1.0, g_out, nullptr, 0))
    accumulate(n, sb, g_b, [&](int64_t i) { return -g_out[i]; });
}

void pvi_ew_mul(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  apply(n, a, sa, b, sb, out, [](double x, double y) { return x * y; });
}
void pvi_ew_mul_grad(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, const double*,
                     const double* g_out, double* g_a, double* g_b) {
  if (!simdAccumulate(n, g_a, sa, 1.0, g_out, b, sb))
    accumulate(n, sa, g_a, [&](int64_t i) { return g_out[i] * b[i * sb]; });
  if (!simdAccumulate(n, g_b, sb, 1.0, g_out, a, sa))
    accumulate(n, sb, g_b, [&](int64_t i) { return g_out[i] * a[i * sa]; });
}

void pvi_ew_div(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  apply(n, a, sa, b, sb, out, [](double x, double y) { return x / y; });
}
void pvi_ew_div_grad(int64_t n, const double*, int64_t sa, const double* b, int64_t sb, const double* out,
                     const double* g_out, double* g_a, double* g_b) {
  accumulate(n, sa, g_a, [&](int64_t i) { return g_out[i] / b[i * sb]; });
  accumulate(n, sb, g_b, [&](int64_t i) { return -g_out[i] * out[i] / b[i * sb]; });
}

void pvi_ew_pow(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  apply(n, a, sa, b, sb, out, [](double x, double y) { return std::pow(x, y); });
}
void pvi_ew_pow_grad(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, const double* out,
                     const double* g_out, double* g_a, double* g_b) {
  accumulate(n, sa, g_a, [&](int64_t i) {
    double x = a[i * sa], y = b[i * sb];
    return y == 0.0 ? 0.0 : g_out[i] * y * std::pow(x, y - 1.0);
  });
  accumulate(n, sb, g_b, [&](int64_t i) { return out[i] == 0.0 ? 0.0 : g_out[i] * out[i] * std::log(a[i * sa]); });
}

void pvi_neg(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = -x[i];
}
void pvi_neg_grad(int64_t n, const double*, const double*, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] -= g_out[i];
}

void pvi_sum_grad(int64_t n, const double*, double, double g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out;
}
double pvi_mean(int64_t n, const double* x) {
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  return n > 0 ? s / static_cast<double>(n) : NAN;
}
void pvi_mean_grad(int64_t n, const double*, double, double g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[i] += g_out / static_cast<double>(n);
}

void pvi_fill(int64_t n, const double* x, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[0];
}
void pvi_fill_grad(int64_t n, const double*, const double*, const double* g_out, double* g_x) {
  for (int64_t i = 0; i < n; ++i) g_x[0] += g_out[i];
}
void pvi_fill_int(int64_t n, int64_t x, int64_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = x;
}
int64_t pvi_int_extreme(int64_t n, const int64_t* x, int64_t largest) {
  if (n <= 0) return 0;
  return largest ? *std::max_element(x, x + n) : *std::min_element(x, x + n);
}

}  // extern "C"
