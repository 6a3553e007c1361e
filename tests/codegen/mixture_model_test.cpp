// An example-like model that uses the newer constructs together: an array of vector means,
// a per-observation vector of component log densities filled in an inner loop, the conditional
// operator choosing between a labelled and an unlabelled term, slices, and a generated block
// with loops, branches and int assignments. Values against C++, gradients against finite
// differences, JIT against AOT.
#include <gtest/gtest.h>

#include <cmath>

#include "stdlib/kernels/rng/rng.h"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kMixture = R"(
// Partially labelled Gaussian mixture: each site has its own mixing weights.
@partition(site)
data {
  int<lower=1> K;
  int<lower=2> D;
  real<lower=0> prior_sd;
}
data per site {
  int<lower=0> N;
  array[N] vector[D] x;
  array[N] int<lower=0, upper=1> labelled;
  array[N] int<lower=1, upper=K> label;
}
global {
  array[K] vector[D] mu;
  vector<lower=0>[K] sigma;
}
local per site {
  vector[K] logit_w;
}
model {
  for (k in 1:K) mu[k] ~ normal(0, prior_sd);
  sigma ~ lognormal(0, 1);
  logit_w ~ normal(0, 1);
  vector[K] log_w = log_softmax(logit_w);
  for (n in 1:N) {
    vector[K] lp;
    for (k in 1:K) lp[k] = log_w[k] + normal_lpdf(x[n] | mu[k], sigma[k]);
    target += labelled[n] ? lp[label[n]] : log_sum_exp(lp);
  }
  target += -0.5 * dot_product(mu[1][1:2], mu[K][1:2]);
}
generated {
  array[N] int assigned;
  int changed = 0;
  for (n in 1:N) {
    real best = -1e300;
    int arg = 1;
    for (k in 1:K) {
      real l = normal_lpdf(x[n] | mu[k], sigma[k]) + logit_w[k];
      if (l > best) {
        best = l;
        arg = k;
      }
    }
    assigned[n] = arg;
    if (labelled[n] && arg != label[n]) changed += 1;
  }
}
)";

double logSumExp(const std::vector<double>& v) {
  double m = -INFINITY;
  for (double x : v) m = std::max(m, x);
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return m + std::log(s);
}

TEST(MixtureModel, ValuesGradientsGeneratedAndAot) {
  Compiled c = compileModel(kMixture);
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(71);
  const size_t K = 3, D = 2, N = 7;
  const double priorSd = 2.0;
  std::vector<double> x = randomVector(N * D, rng, 2.0);
  std::vector<int64_t> labelled = {1, 0, 0, 1, 0, 1, 0}, label = {2, 1, 3, 3, 1, 1, 2};
  DataBlock shared, part;
  shared.addInt(K).addInt(D).addReal(priorSd);
  part.addInt(N).addReals(x).addInts(labelled).addInts(label);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  ASSERT_EQ(m.globalDim(), K * D + K);
  std::vector<double> z = randomVector(K * D + K, rng), w = randomVector(K, rng);
  const double* mu = z.data();
  std::vector<double> sigma(K);
  double prior = 0;
  for (size_t i = 0; i < K * D; ++i) prior += normalLpdf(mu[i], 0, priorSd);
  for (size_t k = 0; k < K; ++k) {
    double u = z[K * D + k];
    sigma[k] = std::exp(u);
    prior += normalLpdf(u, 0, 1) - u + u;  // lognormal density of sigma, plus the log-Jacobian u
  }
  double dot = 0;
  for (size_t d = 0; d < 2; ++d) dot += mu[d] * mu[(K - 1) * D + d];
  prior += -0.5 * dot;
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior, 1e-12 * std::fabs(prior));

  auto componentLpdf = [&](size_t n, size_t k) {
    double l = 0;
    for (size_t d = 0; d < D; ++d) l += normalLpdf(x[n * D + d], mu[k * D + d], sigma[k]);
    return l;
  };
  double lik = 0;
  for (double v : w) lik += normalLpdf(v, 0, 1);
  double lse = logSumExp(w);
  for (size_t n = 0; n < N; ++n) {
    std::vector<double> lp(K);
    for (size_t k = 0; k < K; ++k) lp[k] = w[k] - lse + componentLpdf(n, k);
    lik += labelled[n] ? lp[static_cast<size_t>(label[n] - 1)] : logSumExp(lp);
  }
  double got = m.partitionLogDensity(0, z.data(), w.data(), nullptr, nullptr, nullptr, nullptr);
  EXPECT_NEAR(got, lik, 1e-12 * std::fabs(lik));
  checkGradients(m, rng);
  expectAotBitIdentical(c, shared, {part}, rng, "mixture");

  // Generated: the most likely component of each point, and how many labels disagree.
  int64_t dims[3];
  c.jit->code().generate_partition_size(shared.pointers(), part.pointers(), dims);
  ASSERT_EQ(dims[0], static_cast<int64_t>(N + 1));
  std::vector<double> out(N + 1), ws(4096);
  int64_t status = 0;
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  c.jit->code().generate_partition(z.data(), w.data(), nullptr, shared.pointers(), part.pointers(), out.data(),
                                   ws.data(), static_cast<int64_t>(ws.size() * sizeof(double)), &status, &draws);
  EXPECT_EQ(status, 0);
  int changed = 0;
  for (size_t n = 0; n < N; ++n) {
    double best = -1e300;
    size_t arg = 1;
    for (size_t k = 0; k < K; ++k) {
      double l = componentLpdf(n, k) + w[k];
      if (l > best) best = l, arg = k + 1;
    }
    EXPECT_EQ(out[n], static_cast<double>(arg)) << n;
    if (labelled[n] && static_cast<int64_t>(arg) != label[n]) ++changed;
  }
  EXPECT_EQ(out[N], static_cast<double>(changed));
}

}  // namespace
}  // namespace pvi::test
