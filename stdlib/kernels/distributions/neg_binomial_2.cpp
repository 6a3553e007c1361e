// neg_binomial_2(y | mu, phi), mean mu and overdispersion phi (variance mu + mu^2/phi): value and
// gradient. y >= 0, mu > 0, phi > 0.
#include <cmath>

#include "stdlib/kernels/saddle_point.hpp"
#include "stdlib/kernels/special.hpp"

using namespace pvi::kern;

extern "C" double pvi_neg_binomial_2_lpmf(int64_t n, const int64_t* y, int64_t s_y, const double* mu, int64_t s_mu,
                                          const double* phi, int64_t s_phi) {
  return pvi_neg_binomial_2_lpmf_grad(0.0, n, y, s_y, mu, s_mu, phi, s_phi, nullptr, nullptr);
}

namespace {

// log p = lgamma(y + phi) - lgamma(phi) - lgamma(y + 1) + y log(mu/(mu + phi)) + phi log(phi/(mu + phi)).
// The direct form cancels terms of size phi log phi for large phi (the Poisson limit) and of size
// y log y for large counts. Instead:
// - y = 0: -phi log1p(mu/phi) (or phi log(phi/(mu + phi)) when phi < mu);
// - y < 1e-10 phi: the Poisson limit, poisson(y | mu) - y log1p(mu/phi) - phi log1pmx(mu/phi)
//   + sum_{j<y} log1p(j/phi), the last sum by its two-term expansion (remainder < y^4/phi^3);
// - otherwise NB(y | phi, p) = phi/(phi + y) binomial(phi | phi + y, p) with p = phi/(mu + phi),
//   by Loader's saddle-point form with n - x = y passed exactly.
double logNegBinomial2(double y, double mu, double phi) {
  if (y == 0.0) return phi < mu ? phi * std::log(phi / (mu + phi)) : -phi * std::log1p(mu / phi);
  if (y < 1e-10 * phi) {
    double t = mu / phi;
    double corr = y * (y - 1.0) / (2.0 * phi) - y * (y - 1.0) * (2.0 * y - 1.0) / (12.0 * phi * phi);
    return logPoisRaw(y, mu) - y * std::log1p(t) - phi * log1pmx(t) + corr;
  }
  double s = mu + phi;
  return std::log(phi / (phi + y)) + logBinomRaw(phi, phi + y, y, phi / s, mu / s);
}

// digamma(y + phi) - digamma(phi) for integer y >= 0: a direct sum for small counts.
double digammaDiff(int64_t y, double phi) {
  if (y <= 32) {
    double s = 0.0;
    for (int64_t j = 0; j < y; ++j) s += 1.0 / (phi + static_cast<double>(j));
    return s;
  }
  return digamma(phi + static_cast<double>(y)) - digamma(phi);
}

}  // namespace

// d/dmu  = y/mu - (y + phi)/(mu + phi) = phi (y - mu) / (mu (mu + phi))
// d/dphi = digamma(y + phi) - digamma(phi) - log1p(mu/phi) + (mu - y)/(mu + phi)
extern "C" double pvi_neg_binomial_2_lpmf_grad(double adj, int64_t n, const int64_t* y, int64_t s_y,
                                               const double* mu, int64_t s_mu, const double* phi, int64_t s_phi,
                                               double* g_mu, double* g_phi) {
  double lp = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t yi = y[i * s_y];
    double mi = mu[i * s_mu], pi = phi[i * s_phi];
    if (!positiveFinite(mi) || !positiveFinite(pi) || yi < 0) return -INFINITY;
    double yd = static_cast<double>(yi);
    lp += logNegBinomial2(yd, mi, pi);
    double s = mi + pi;
    if (g_mu) g_mu[i * s_mu] += adj * (pi * (yd - mi) / (mi * s));
    if (g_phi) g_phi[i * s_phi] += adj * (digammaDiff(yi, pi) - std::log1p(mi / pi) + (mi - yd) / s);
  }
  return lp;
}
