// Draws of the continuous univariate distributions, with the domain checks of Stan's _rng
// functions (finite locations, positive finite scales and shapes).
#include <boost/random/cauchy_distribution.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <boost/random/weibull_distribution.hpp>

#include "stdlib/kernels/rng/engine.hpp"

using namespace pvi::kern;

namespace {

// Location-scale draws: mu + sigma * draw(), with mu finite and sigma positive finite.
template <class Draw>
int64_t locationScale(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu, const double* sigma, int64_t s_sigma,
                      double* out, Draw draw) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return isFinite(mu[i * s_mu]) && positiveFinite(sigma[i * s_sigma]); },
      [&](int64_t i) { out[i] = mu[i * s_mu] + sigma[i * s_sigma] * draw(e); });
}

// Draws with two positive finite parameters: draw(engine, a, b).
template <class Draw>
int64_t positivePair(pvi_rng* rng, int64_t n, const double* a, int64_t s_a, const double* b, int64_t s_b, double* out,
                     Draw draw) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return positiveFinite(a[i * s_a]) && positiveFinite(b[i * s_b]); },
      [&](int64_t i) { out[i] = draw(e, a[i * s_a], b[i * s_b]); });
}

}  // namespace

extern "C" int64_t pvi_normal_rng(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu, const double* sigma,
                                  int64_t s_sigma, double* out) {
  return locationScale(rng, n, mu, s_mu, sigma, s_sigma, out,
                       [](Engine& e) { return boost::random::normal_distribution<double>()(e); });
}

extern "C" int64_t pvi_std_normal_rng(pvi_rng* rng, int64_t n, double* out) {
  const double zero = 0.0, one = 1.0;
  return pvi_normal_rng(rng, n, &zero, 0, &one, 0, out);
}

extern "C" int64_t pvi_lognormal_rng(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu, const double* sigma,
                                     int64_t s_sigma, double* out) {
  int64_t status = pvi_normal_rng(rng, n, mu, s_mu, sigma, s_sigma, out);
  for (int64_t i = 0; i < n; ++i) out[i] = std::exp(out[i]);
  return status;
}

extern "C" int64_t pvi_cauchy_rng(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu, const double* sigma,
                                  int64_t s_sigma, double* out) {
  return locationScale(rng, n, mu, s_mu, sigma, s_sigma, out,
                       [](Engine& e) { return boost::random::cauchy_distribution<double>()(e); });
}

extern "C" int64_t pvi_student_t_rng(pvi_rng* rng, int64_t n, const double* nu, int64_t s_nu, const double* mu,
                                     int64_t s_mu, const double* sigma, int64_t s_sigma, double* out) {
  Engine e(rng);
  return drawEach(
      n,
      [&](int64_t i) {
        return positiveFinite(nu[i * s_nu]) && isFinite(mu[i * s_mu]) && positiveFinite(sigma[i * s_sigma]);
      },
      [&](int64_t i) {
        double t = boost::random::student_t_distribution<double>(nu[i * s_nu])(e);
        out[i] = mu[i * s_mu] + sigma[i * s_sigma] * t;
      });
}

// Inverse of the logistic cdf at a uniform on (0, 1).
extern "C" int64_t pvi_logistic_rng(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu, const double* sigma,
                                    int64_t s_sigma, double* out) {
  return locationScale(rng, n, mu, s_mu, sigma, s_sigma, out, [](Engine& e) {
    double u = e.open01();
    return std::log(u) - std::log1p(-u);
  });
}

// Inverse of the Laplace cdf at a uniform on (-1/2, 1/2): -sign(v) log(1 - 2|v|).
extern "C" int64_t pvi_double_exponential_rng(pvi_rng* rng, int64_t n, const double* mu, int64_t s_mu,
                                              const double* sigma, int64_t s_sigma, double* out) {
  return locationScale(rng, n, mu, s_mu, sigma, s_sigma, out, [](Engine& e) {
    const double v = e.open01() - 0.5;
    return v < 0.0 ? std::log1p(2.0 * v) : -std::log1p(-2.0 * v);
  });
}

// beta is the rate.
extern "C" int64_t pvi_exponential_rng(pvi_rng* rng, int64_t n, const double* beta, int64_t s_beta, double* out) {
  Engine e(rng);
  return drawEach(
      n, [&](int64_t i) { return positiveFinite(beta[i * s_beta]); },
      [&](int64_t i) { out[i] = boost::random::exponential_distribution<double>(beta[i * s_beta])(e); });
}

// Shape alpha, rate beta (Boost's second parameter is the scale).
extern "C" int64_t pvi_gamma_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha, const double* beta,
                                 int64_t s_beta, double* out) {
  return positivePair(rng, n, alpha, s_alpha, beta, s_beta, out, [](Engine& e, double a, double b) {
    return boost::random::gamma_distribution<double>(a, 1.0 / b)(e);
  });
}

// Shape alpha, scale sigma: sigma (-log U)^(1 / alpha), by Boost's weibull_distribution(a, b).
extern "C" int64_t pvi_weibull_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha,
                                   const double* sigma, int64_t s_sigma, double* out) {
  return positivePair(rng, n, alpha, s_alpha, sigma, s_sigma, out, [](Engine& e, double a, double s) {
    return boost::random::weibull_distribution<double>(a, s)(e);
  });
}

// 1 / x for x ~ gamma(alpha, rate = beta).
extern "C" int64_t pvi_inv_gamma_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha,
                                     const double* beta, int64_t s_beta, double* out) {
  return positivePair(rng, n, alpha, s_alpha, beta, s_beta, out, [](Engine& e, double a, double b) {
    return 1.0 / boost::random::gamma_distribution<double>(a, 1.0 / b)(e);
  });
}

// x / (x + y) for independent gamma draws x, y, from their logs (small shapes would underflow):
// x / (x + y) = 1 / (1 + exp(log y - log x)).
extern "C" int64_t pvi_beta_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha, const double* beta,
                                int64_t s_beta, double* out) {
  return positivePair(rng, n, alpha, s_alpha, beta, s_beta, out, [](Engine& e, double a, double b) {
    const double lx = logGammaDraw(e, a), ly = logGammaDraw(e, b);
    return 1.0 / (1.0 + std::exp(ly - lx));
  });
}

extern "C" int64_t pvi_uniform_rng(pvi_rng* rng, int64_t n, const double* alpha, int64_t s_alpha, const double* beta,
                                   int64_t s_beta, double* out) {
  Engine e(rng);
  return drawEach(
      n,
      [&](int64_t i) {
        double a = alpha[i * s_alpha], b = beta[i * s_beta];
        return isFinite(a) && isFinite(b) && b > a;
      },
      [&](int64_t i) {
        double a = alpha[i * s_alpha], b = beta[i * s_beta];
        out[i] = a + (b - a) * e.open01();
      });
}
