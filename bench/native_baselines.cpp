#include "native_baselines.hpp"

#include <Eigen/Dense>
#include <cmath>

#define PVI_BENCH_EXPORT __attribute__((visibility("default")))

extern "C" PVI_BENCH_EXPORT double pvi_bench_logistic_native(int64_t n, int64_t d, const double* X, const double* y,
                                                             const double* z, double* grad, double* work) {
  using Eigen::ArrayXd;
  using Eigen::Map;
  const Map<const Eigen::MatrixXd> x(X, n, d);
  const Map<const Eigen::VectorXd> beta(z + 1, d);
  const Map<const ArrayXd> yy(y, n);
  Map<ArrayXd> a(work, n), e(work + n, n), r(work + 2 * n, n);
  a.matrix().noalias() = x * beta;
  a += z[0];
  // log(1 + e^a) = max(a, 0) + log(1 + e^-|a|): stable for every a, with one exp and one log.
  e = (-a.abs()).exp();
  const double value = (yy * a - a.max(0.0) - (1.0 + e).log()).sum();
  r = yy - (a >= 0.0).select(1.0, e) / (1.0 + e);  // y - logistic(a)
  grad[0] = r.sum();
  Map<Eigen::VectorXd>(grad + 1, d).noalias() = x.transpose() * r.matrix();
  return value;
}

extern "C" PVI_BENCH_EXPORT double pvi_bench_hierarchical_native(const pvi_bench_hierarchical_data* h, const double* z,
                                                                 const double* w, double* gz, double* gw,
                                                                 double* work) {
  using Eigen::ArrayXd;
  using Eigen::Map;
  constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2 pi) / 2
  const double alpha = z[0], bUrban = z[1], bAge = z[2], b1 = z[3], b2 = z[4], b3 = z[5], u = z[6];
  const double tau = std::exp(u), invTau2 = 1.0 / (tau * tau);
  const double invPrior2 = 1.0 / (h->prior_sd * h->prior_sd), logPriorSd = std::log(h->prior_sd);
  double lp = 0.0;
  for (int k = 0; k < 6; ++k) {
    lp += -0.5 * z[k] * z[k] * invPrior2 - logPriorSd - kHalfLog2Pi;
    gz[k] = -z[k] * invPrior2;
  }
  const double invTauPrior2 = 1.0 / (h->tau_prior_sd * h->tau_prior_sd);
  lp += -0.5 * tau * tau * invTauPrior2 - std::log(h->tau_prior_sd) - kHalfLog2Pi + u;
  gz[6] = -tau * tau * invTauPrior2 + 1.0;
  for (int64_t j = 0; j < h->districts; ++j) {
    const int64_t s = h->start[j], m = h->start[j + 1] - s;
    const Map<const ArrayXd> y(h->use + s, m), x1(h->urban + s, m), x2(h->age + s, m), x3(h->livch1 + s, m),
        x4(h->livch2 + s, m), x5(h->livch3 + s, m);
    Map<ArrayXd> eta(work, m), e(work + m, m), d(work + 2 * m, m);
    const double a = w[j];
    eta = (alpha + a) + bUrban * x1 + bAge * x2 + b1 * x3 + b2 * x4 + b3 * x5;
    e = (-eta.abs()).exp();
    const double lik = (y * eta - eta.max(0.0) - (1.0 + e).log()).sum();
    d = y - (eta >= 0.0).select(1.0, e) / (1.0 + e);  // use - inv_logit(eta)
    const double sD = d.sum();
    const double a2 = a * a * invTau2;
    lp += lik - 0.5 * a2 - u - kHalfLog2Pi;
    gw[j] = sD - a * invTau2;
    gz[0] += sD;
    gz[1] += (d * x1).sum();
    gz[2] += (d * x2).sum();
    gz[3] += (d * x3).sum();
    gz[4] += (d * x4).sum();
    gz[5] += (d * x5).sum();
    gz[6] += a2 - 1.0;
  }
  return lp;
}

// Everything that depends on the data alone is computed once, as a careful engineer would: the
// normalising constants and log sigma_j of every term, and 1 / sigma_j.
extern "C" PVI_BENCH_EXPORT void pvi_bench_eight_schools_prepare(const double* y, const double* sigma,
                                                                 pvi_bench_eight_schools_data* d) {
  constexpr double kHalfLog2Pi = 0.91893853320467274178, kLogPi = 1.14472988584940017414;
  const double log5 = std::log(5.0);
  d->constant = -log5 - kHalfLog2Pi - kLogPi - log5;  // normal(mu | 0, 5) and cauchy(tau | 0, 5)
  for (int j = 0; j < 8; ++j) {
    d->y[j] = y[j];
    d->inv_sigma[j] = 1.0 / sigma[j];
    d->constant += -2 * kHalfLog2Pi - std::log(sigma[j]);
  }
}

extern "C" PVI_BENCH_EXPORT double pvi_bench_eight_schools_native(const pvi_bench_eight_schools_data* d,
                                                                  const double* x, double* g) {
  const double mu = x[0], u = x[1], tau = std::exp(u);
  // normal(mu | 0, 5), cauchy(tau | 0, 5) and the log-Jacobian u.
  const double r = tau / 5.0;
  double lp = d->constant - 0.5 * mu * mu / 25.0 - std::log1p(r * r) + u;
  double gMu = -mu / 25.0, gTau = -2.0 * r / (5.0 * (1.0 + r * r));
  for (int j = 0; j < 8; ++j) {
    const double t = x[2 + j], is = d->inv_sigma[j], z = (d->y[j] - mu - tau * t) * is;
    lp += -0.5 * (t * t + z * z);
    const double dTheta = z * is;  // d/d(mu + tau t)
    gMu += dTheta;
    gTau += dTheta * t;
    g[2 + j] = -t + dTheta * tau;
  }
  g[0] = gMu;
  g[1] = gTau * tau + 1.0;
  return lp;
}
