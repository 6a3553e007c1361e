// Transforms of bounded variables from unconstrained space, with their log-Jacobians:
//   lower L:        x = L + exp(u),                 log|dx/du| = u
//   upper U:        x = U - exp(u),                 log|dx/du| = u
//   lower L, upper U: x = L + (U - L) inv_logit(u),  log|dx/du| = log(U - L) + log_inv_logit(u) + log1m_inv_logit(u)
//   offset o, multiplier m (Stan's affine transform): x = o + m u,  log|dx/du| = log m  (m > 0; else -inf)
#include <cmath>

#include "stdlib/kernels/arith/arith.h"

namespace {
double invLogit(double u) { return u >= 0 ? 1.0 / (1.0 + std::exp(-u)) : std::exp(u) / (1.0 + std::exp(u)); }
// log(inv_logit(u)) + log(1 - inv_logit(u)) = -|u| - 2 log1p(exp(-|u|))
double logSigmoidProduct(double u) { return -std::fabs(u) - 2.0 * std::log1p(std::exp(-std::fabs(u))); }
}  // namespace

extern "C" {

double pvi_tf_lower(int64_t n, const double* u, const double* lb, int64_t slb, double* out) {
  double lj = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = lb[i * slb] + std::exp(u[i]);
    lj += u[i];
  }
  return lj;
}
void pvi_tf_lower_grad(int64_t n, const double* u, const double*, int64_t slb, const double*, const double* g_out,
                       double g_lj, double* g_u, double* g_lb) {
  for (int64_t i = 0; i < n; ++i) {
    g_u[i] += g_out[i] * std::exp(u[i]) + g_lj;
    if (g_lb) g_lb[i * slb] += g_out[i];
  }
}

double pvi_tf_upper(int64_t n, const double* u, const double* ub, int64_t sub, double* out) {
  double lj = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = ub[i * sub] - std::exp(u[i]);
    lj += u[i];
  }
  return lj;
}
void pvi_tf_upper_grad(int64_t n, const double* u, const double*, int64_t sub, const double*, const double* g_out,
                       double g_lj, double* g_u, double* g_ub) {
  for (int64_t i = 0; i < n; ++i) {
    g_u[i] += -g_out[i] * std::exp(u[i]) + g_lj;
    if (g_ub) g_ub[i * sub] += g_out[i];
  }
}

double pvi_tf_lower_upper(int64_t n, const double* u, const double* lb, int64_t slb, const double* ub, int64_t sub,
                          double* out) {
  double lj = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double l = lb[i * slb], w = ub[i * sub] - l;
    out[i] = l + w * invLogit(u[i]);
    lj += std::log(w) + logSigmoidProduct(u[i]);
  }
  return lj;
}
void pvi_tf_lower_upper_grad(int64_t n, const double* u, const double* lb, int64_t slb, const double* ub,
                             int64_t sub, const double*, const double* g_out, double g_lj, double* g_u,
                             double* g_lb, double* g_ub) {
  for (int64_t i = 0; i < n; ++i) {
    double l = lb[i * slb], w = ub[i * sub] - l;
    double s = invLogit(u[i]);
    // d/du [log s + log(1 - s)] = 1 - 2 s
    g_u[i] += g_out[i] * w * s * (1.0 - s) + g_lj * (1.0 - 2.0 * s);
    if (g_lb) g_lb[i * slb] += g_out[i] * (1.0 - s) - g_lj / w;
    if (g_ub) g_ub[i * sub] += g_out[i] * s + g_lj / w;
  }
}

int64_t pvi_tf_lower_inv(int64_t n, const double* x, const double* lb, int64_t slb, double* u) {
  for (int64_t i = 0; i < n; ++i) {
    double d = x[i] - lb[i * slb];
    if (!(d > 0.0)) return i + 1;
    u[i] = std::log(d);
  }
  return 0;
}
int64_t pvi_tf_upper_inv(int64_t n, const double* x, const double* ub, int64_t sub, double* u) {
  for (int64_t i = 0; i < n; ++i) {
    double d = ub[i * sub] - x[i];
    if (!(d > 0.0)) return i + 1;
    u[i] = std::log(d);
  }
  return 0;
}
int64_t pvi_tf_lower_upper_inv(int64_t n, const double* x, const double* lb, int64_t slb, const double* ub,
                               int64_t sub, double* u) {
  for (int64_t i = 0; i < n; ++i) {
    double l = lb[i * slb], h = ub[i * sub];
    if (!(x[i] > l && x[i] < h)) return i + 1;
    double p = (x[i] - l) / (h - l);
    u[i] = std::log(p) - std::log1p(-p);
  }
  return 0;
}

double pvi_tf_affine(int64_t n, const double* u, const double* o, int64_t so, const double* m, int64_t sm,
                     double* out) {
  double lj = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double mi = m[i * sm];
    out[i] = o[i * so] + mi * u[i];
    // A multiplier that is not positive is outside the transform's domain (Stan rejects it): the
    // log density is -inf there, so samplers reject the point and VI sees an invalid draw.
    lj += mi > 0.0 ? std::log(mi) : mi <= 0.0 ? -HUGE_VAL : mi;
  }
  return lj;
}
void pvi_tf_affine_grad(int64_t n, const double* u, const double*, int64_t so, const double* m, int64_t sm,
                        const double*, const double* g_out, double g_lj, double* g_u, double* g_o, double* g_m) {
  for (int64_t i = 0; i < n; ++i) {
    const double mi = m[i * sm];
    g_u[i] += g_out[i] * mi;
    if (g_o) g_o[i * so] += g_out[i];
    if (g_m) g_m[i * sm] += g_out[i] * u[i] + g_lj / mi;
  }
}
int64_t pvi_tf_affine_inv(int64_t n, const double* x, const double* o, int64_t so, const double* m, int64_t sm,
                          double* u) {
  for (int64_t i = 0; i < n; ++i) {
    const double mi = m[i * sm];
    if (!(mi > 0.0) || !std::isfinite(x[i])) return i + 1;
    u[i] = (x[i] - o[i * so]) / mi;
  }
  return 0;
}

}  // extern "C"
