// Draws of the discrete distributions, with the domain checks of Stan's _rng functions
// (probabilities in [0, 1], finite logits, Poisson rates below 2^30 as in Stan).
#include <boost/random/binomial_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <vector>

#include "stdlib/kernels/rng/engine.hpp"

using namespace pvi::kern;

namespace {

constexpr double kPoissonMaxRate = 1073741824.0;  // 2^30: larger rates overflow Stan's int

int64_t poissonDraw(Engine& e, double lambda) {
  if (lambda == 0.0) return 0;  // Boost requires a positive mean
  return boost::random::poisson_distribution<int64_t, double>(lambda)(e);
}

int64_t binomialDraw(Engine& e, int64_t N, double p) {
  if (N == 0 || p == 0.0) return 0;
  if (p == 1.0) return N;
  return boost::random::binomial_distribution<int64_t, double>(N, p)(e);
}

// The 1-based category of a uniform draw under weights w (summing to `total`).
int64_t categoryDraw(Engine& e, int64_t k, const double* w, double total) {
  double u = e.open01() * total;
  for (int64_t c = 0; c < k; ++c) {
    u -= w[c];
    if (u < 0.0) return c + 1;
  }
  for (int64_t c = k; c-- > 0;)  // rounding left u >= 0: the last category of positive weight
    if (w[c] > 0.0) return c + 1;
  return k;
}

}  // namespace

extern "C" int64_t pvi_bernoulli_rng(pvi_rng* rng, int64_t n, const double* theta, int64_t s_theta, int64_t* out) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return inUnit(theta[i * s_theta]); },
      [&](int64_t i) { out[i] = e.open01() < theta[i * s_theta] ? 1 : 0; });
}

extern "C" int64_t pvi_bernoulli_logit_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha,
                                           int64_t* out) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return isFinite(alpha[i * s_alpha]); },
      [&](int64_t i) { out[i] = e.open01() < invLogit(alpha[i * s_alpha]) ? 1 : 0; });
}

extern "C" int64_t pvi_binomial_rng(pvi_rng* rng, int64_t n, const int64_t* N, int64_t s_N, const double* theta,
                                    int64_t s_theta, int64_t* out) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return N[i * s_N] >= 0 && inUnit(theta[i * s_theta]); },
      [&](int64_t i) { out[i] = binomialDraw(e, N[i * s_N], theta[i * s_theta]); });
}

extern "C" int64_t pvi_binomial_logit_rng(pvi_rng* rng, int64_t n, const int64_t* N, int64_t s_N, const double* alpha,
                                          int64_t s_alpha, int64_t* out) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return N[i * s_N] >= 0 && isFinite(alpha[i * s_alpha]); },
      [&](int64_t i) { out[i] = binomialDraw(e, N[i * s_N], invLogit(alpha[i * s_alpha])); });
}

extern "C" int64_t pvi_poisson_rng(pvi_rng* rng, int64_t n, const double* lambda, int64_t s_lambda, int64_t* out) {
  Engine e(rng);
  return drawEach(
      n,
      [&](int64_t i) {
        double l = lambda[i * s_lambda];
        return l >= 0.0 && l < kPoissonMaxRate;
      },
      [&](int64_t i) { out[i] = poissonDraw(e, lambda[i * s_lambda]); });
}

extern "C" int64_t pvi_poisson_log_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha, int64_t* out) {
  Engine e(rng);
  return drawEach(
      n,
      [&](int64_t i) {
        double a = alpha[i * s_alpha];
        return isFinite(a) && a < std::log(kPoissonMaxRate);
      },
      [&](int64_t i) { out[i] = poissonDraw(e, std::exp(alpha[i * s_alpha])); });
}

// A gamma-Poisson mixture: lambda ~ gamma(phi, rate = phi / mu), y ~ poisson(lambda). A rate of
// 2^30 or more is a domain error, as in Stan.
extern "C" int64_t pvi_neg_binomial_2_rng(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu, const double* phi,
                                          int64_t s_phi, int64_t* out) {
  Engine e(rng);
  for (int64_t i = 0; i < n; ++i) {
    double m = mu[i * s_mu], p = phi[i * s_phi];
    if (!positiveFinite(m) || !positiveFinite(p)) return i + 1;
    double lambda = boost::random::gamma_distribution<double>(p, m / p)(e);
    if (!(lambda < kPoissonMaxRate)) return i + 1;
    out[i] = poissonDraw(e, lambda);
  }
  return 0;
}

// theta must be a simplex: non-negative, summing to 1 within 1e-8 (Stan's tolerance).
extern "C" int64_t pvi_categorical_rng(pvi_rng* rng, int64_t k, const double* theta, int64_t* out) {
  double total = 0.0;
  for (int64_t c = 0; c < k; ++c) {
    if (!(theta[c] >= 0.0)) return 1;
    total += theta[c];
  }
  if (k == 0 || !(std::fabs(total - 1.0) <= 1e-8)) return 1;
  Engine e(rng);
  out[0] = categoryDraw(e, k, theta, total);
  return 0;
}

// Softmax of finite logits beta, then a categorical draw.
extern "C" int64_t pvi_categorical_logit_rng(pvi_rng* rng, int64_t k, const double* beta, int64_t* out) {
  if (k == 0) return 1;
  double top = -INFINITY;
  for (int64_t c = 0; c < k; ++c) {
    if (!isFinite(beta[c])) return 1;
    top = std::max(top, beta[c]);
  }
  double total = 0.0;
  std::vector<double> w(static_cast<size_t>(k));
  for (int64_t c = 0; c < k; ++c) total += (w[c] = std::exp(beta[c] - top));
  Engine e(rng);
  out[0] = categoryDraw(e, k, w.data(), total);
  return 0;
}
