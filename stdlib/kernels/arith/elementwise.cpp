// Element-wise arithmetic with broadcasting: value and gradient side by side.
#include <cmath>

#include "stdlib/kernels/arith/arith.h"

extern "C" {

void pvi_ew_add(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] + b[i * sb];
}
void pvi_ew_add_grad(int64_t n, const double*, int64_t sa, const double*, int64_t sb, const double*,
                     const double* g_out, double* g_a, double* g_b) {
  for (int64_t i = 0; i < n; ++i) {
    if (g_a) g_a[i * sa] += g_out[i];
    if (g_b) g_b[i * sb] += g_out[i];
  }
}

void pvi_ew_sub(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] - b[i * sb];
}
void pvi_ew_sub_grad(int64_t n, const double*, int64_t sa, const double*, int64_t sb, const double*,
                     const double* g_out, double* g_a, double* g_b) {
  for (int64_t i = 0; i < n; ++i) {
    if (g_a) g_a[i * sa] += g_out[i];
    if (g_b) g_b[i * sb] -= g_out[i];
  }
}

void pvi_ew_mul(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] * b[i * sb];
}
void pvi_ew_mul_grad(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, const double*,
                     const double* g_out, double* g_a, double* g_b) {
  for (int64_t i = 0; i < n; ++i) {
    if (g_a) g_a[i * sa] += g_out[i] * b[i * sb];
    if (g_b) g_b[i * sb] += g_out[i] * a[i * sa];
  }
}

void pvi_ew_div(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i * sa] / b[i * sb];
}
void pvi_ew_div_grad(int64_t n, const double*, int64_t sa, const double* b, int64_t sb, const double* out,
                     const double* g_out, double* g_a, double* g_b) {
  for (int64_t i = 0; i < n; ++i) {
    double inv = 1.0 / b[i * sb];
    if (g_a) g_a[i * sa] += g_out[i] * inv;
    if (g_b) g_b[i * sb] -= g_out[i] * out[i] * inv;
  }
}

void pvi_ew_pow(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::pow(a[i * sa], b[i * sb]);
}
void pvi_ew_pow_grad(int64_t n, const double* a, int64_t sa, const double* b, int64_t sb, const double* out,
                     const double* g_out, double* g_a, double* g_b) {
  for (int64_t i = 0; i < n; ++i) {
    double x = a[i * sa], y = b[i * sb];
    if (g_a) g_a[i * sa] += g_out[i] * (y == 0.0 ? 0.0 : y * std::pow(x, y - 1.0));
    if (g_b && out[i] != 0.0) g_b[i * sb] += g_out[i] * out[i] * std::log(x);
  }
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

}  // extern "C"
