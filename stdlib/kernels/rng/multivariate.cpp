// Draws of the multivariate distributions: dirichlet (normalised gamma draws, in logs so that
// small concentrations do not underflow) and multi_normal (mu + L z with L the Cholesky factor).
#include <boost/random/normal_distribution.hpp>
#include <vector>

#include "stdlib/kernels/dense_support.hpp"
#include "stdlib/kernels/rng/engine.hpp"

using namespace pvi::kern;

extern "C" int64_t pvi_dirichlet_rng(pvi_rng* rng, int64_t k, const double* alpha, double* out) {
  if (k == 0) return 1;
  for (int64_t c = 0; c < k; ++c)
    if (!positiveFinite(alpha[c])) return c + 1;
  Engine e(rng);
  double top = -INFINITY;
  for (int64_t c = 0; c < k; ++c) top = std::max(top, out[c] = logGammaDraw(e, alpha[c]));
  double total = 0.0;
  for (int64_t c = 0; c < k; ++c) total += (out[c] = std::exp(out[c] - top));
  for (int64_t c = 0; c < k; ++c) out[c] /= total;
  return 0;
}

// mu + L z, z standard normal, L lower triangular (its strict upper triangle is not read).
extern "C" int64_t pvi_multi_normal_cholesky_rng(pvi_rng* rng, int64_t k, const double* mu, const double* L,
                                                 double* out) {
  for (int64_t c = 0; c < k; ++c)
    if (!isFinite(mu[c])) return c + 1;
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j; i < k; ++i)
      if (!isFinite(L[i + j * k])) return 1;
  Engine e(rng);
  std::vector<double> z(static_cast<size_t>(k));
  for (double& x : z) x = boost::random::normal_distribution<double>()(e);
  for (int64_t i = 0; i < k; ++i) out[i] = mu[i];
  for (int64_t j = 0; j < k; ++j)  // column by column: out += L(:, j) z_j
    for (int64_t i = j; i < k; ++i) out[i] += L[i + j * k] * z[static_cast<size_t>(j)];
  return 0;
}

// Sigma must be symmetric, to 1e-8 of sqrt(Sigma_ii Sigma_jj) (the test multi_normal_lpdf
// makes, so that a covariance the density accepts can be drawn from), and positive definite.
extern "C" int64_t pvi_multi_normal_rng(pvi_rng* rng, int64_t k, const double* mu, const double* Sigma, double* out) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j + 1; i < k; ++i) {
      double a = Sigma[i + j * k], b = Sigma[j + i * k];
      if (!(std::fabs(a - b) <= 1e-8 * std::sqrt(std::fabs(Sigma[i + i * k] * Sigma[j + j * k])))) return 1;
    }
  std::vector<double> L(static_cast<size_t>(k * k), 0.0);
  if (!choleskyLower(k, Sigma, L.data())) return 1;
  return pvi_multi_normal_cholesky_rng(rng, k, mu, L.data(), out);
}
