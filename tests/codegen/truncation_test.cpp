// Stan's truncation T[L, U] and the CDF functions in generated code: the log density of a
// truncated statement equals the truncated density computed with Boost.Math (density over the
// probability of [L, U]; for a discrete distribution the mass of L..U), for both bounds, a lower
// bound alone and an upper bound alone; data outside the bounds give -inf; the gradients match
// finite differences; D_cdf is exp(D_lcdf).
#include <gtest/gtest.h>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

namespace bm = boost::math;

const char* kTruncatedNormal = R"(
data { int N; vector[N] y; real L; real U; }
parameters { real mu; real<lower=0> sigma; }
model {
  y ~ normal(mu, sigma) T[L, U];
  y[1] ~ normal(mu, sigma) T[L, ];
  y[2] ~ normal(mu, sigma) T[, U];
}
)";

// sum over y of log [pdf(y) / (Phi(U) - Phi(L))], plus y1 and y2 truncated on one side, plus the
// log-Jacobian of sigma = exp(z[1]).
double truncatedNormalReference(const std::vector<double>& y, double lo, double hi, const std::vector<double>& z) {
  const double mu = z[0], sigma = std::exp(z[1]);
  const bm::normal_distribution<double> d(mu, sigma);
  const double mass = bm::cdf(d, hi) - bm::cdf(d, lo);
  double lp = z[1];
  for (double v : y) lp += std::log(bm::pdf(d, v)) - std::log(mass);
  lp += std::log(bm::pdf(d, y[0])) - std::log(bm::cdf(bm::complement(d, lo)));
  lp += std::log(bm::pdf(d, y[1])) - std::log(bm::cdf(d, hi));
  return lp;
}

TEST(Truncation, NormalEqualsTheTruncatedDensityFromBoost) {
  Compiled c = compileModel(kTruncatedNormal);
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<double> y{0.3, 1.7, -0.4, 2.2};
  DataBlock data;
  data.addInt(4);
  data.addReals(y);
  data.addReal(-1.0);
  data.addReal(2.5);
  CompiledModel m(c.jit->code(), c.lowered->info, data, {});
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<double> z = randomVector(2, rng, 0.8);
    const double lp = m.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    const double ref = truncatedNormalReference(y, -1.0, 2.5, z);
    EXPECT_NEAR(lp, ref, 1e-12 * (1 + std::fabs(ref))) << trial;
  }
  checkGradients(m, rng);
  // A data value outside [L, U]: probability 0.
  DataBlock outside;
  outside.addInt(4);
  outside.addReals({0.3, 1.7, -0.4, 2.6});
  outside.addReal(-1.0);
  outside.addReal(2.5);
  CompiledModel mo(c.jit->code(), c.lowered->info, outside, {});
  const std::vector<double> z{0.1, 0.2};
  EXPECT_EQ(mo.priorLogDensity(z.data(), nullptr, nullptr, nullptr), -INFINITY);
}

// A truncated local in a partitioned model: the normalising term -log P(theta >= 0 | mu) reads
// only the global mu, yet belongs to each partition's factor (one term per partition's theta),
// not once to the prior.
const char* kTruncatedLocal = R"(
@partition(g)
data per g { real y; }
parameters { real mu; }
local per g { real<lower=0> theta; }
model {
  mu ~ normal(0, 1);
  theta ~ normal(mu, 1) T[0, ];
  y ~ normal(theta, 1);
}
)";

TEST(Truncation, ALocalsNormalisingTermIsInItsPartitionsFactor) {
  Compiled c = compileModel(kTruncatedLocal);
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<double> ys{0.4, 1.3, 2.2};
  std::vector<DataBlock> parts(ys.size());
  for (size_t j = 0; j < ys.size(); ++j) parts[j].addReal(ys[j]);
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, parts);
  const bm::normal_distribution<double> standard(0, 1);
  const double mu = 0.3;
  EXPECT_NEAR(m.priorLogDensity(&mu, nullptr, nullptr, nullptr), std::log(bm::pdf(standard, mu)), 1e-14);
  for (size_t j = 0; j < ys.size(); ++j) {
    const double w = -0.2 + 0.3 * static_cast<double>(j), theta = std::exp(w);
    const double ref = std::log(bm::pdf(standard, theta - mu)) - std::log(bm::cdf(standard, mu)) +
                       std::log(bm::pdf(standard, ys[j] - theta)) + w;
    EXPECT_NEAR(m.partitionLogDensity(j, &mu, &w, nullptr, nullptr, nullptr, nullptr), ref, 1e-13) << j;
  }
  std::mt19937_64 rng(11);
  checkGradients(m, rng);
}

// Zero-truncated Poisson counts (T[1, ]: P(y >= 1) = 1 - F(0)), counts truncated to 2..6, and a
// lower bound at the support's edge (T[0, ]: poisson_lccdf(-1 | lambda) = 0).
const char* kTruncatedPoisson = R"(
data { int N; array[N] int y; }
parameters { real<lower=0> lambda; }
model {
  y ~ poisson(lambda) T[1, ];
  y[1] ~ poisson(lambda) T[2, 6];
  y[2] ~ poisson(lambda) T[0, ];  // P(y >= 0) = 1: the plain density
}
)";

TEST(Truncation, DiscreteBoundsCountTheLowerValue) {
  Compiled c = compileModel(kTruncatedPoisson);
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<int64_t> y{3, 1, 2, 5};
  DataBlock data;
  data.addInt(4);
  data.addInts(y);
  CompiledModel m(c.jit->code(), c.lowered->info, data, {});
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<double> z = randomVector(1, rng, 0.8);
    const double lambda = std::exp(z[0]);
    const bm::poisson_distribution<double> d(lambda);
    double ref = z[0];  // log-Jacobian
    for (int64_t v : y) ref += std::log(bm::pdf(d, v)) - std::log1p(-bm::pdf(d, 0));
    ref += std::log(bm::pdf(d, y[0])) - std::log(bm::cdf(d, 6) - bm::cdf(d, 1));
    ref += std::log(bm::pdf(d, y[1]));
    EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), ref, 1e-12 * (1 + std::fabs(ref))) << trial;
  }
  checkGradients(m, rng);
}

// D_cdf(y | ...) = exp(D_lcdf(y | ...)); the CDFs of a latent's function, with gradients.
const char* kCdfFunctions = R"(
data { real y; }
parameters { real mu; real<lower=0> s; }
model {
  target += normal_lcdf(y | mu, s) + weibull_lccdf(y + 3 | s, 2) + log(logistic_cdf(y | mu, s));
  target += student_t_lccdf(y | 3, mu, s) + gamma_lcdf(y + 3 | s, 1.5);
}
)";

TEST(Truncation, CdfFunctionsHaveGradients) {
  Compiled c = compileModel(kCdfFunctions);
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock data;
  data.addReal(0.7);
  CompiledModel m(c.jit->code(), c.lowered->info, data, {});
  std::mt19937_64 rng(10);
  checkGradients(m, rng);
  const std::vector<double> z{0.2, 0.1};
  const double mu = 0.2, s = std::exp(0.1), y = 0.7;
  const double logistic = 1 / (1 + std::exp(-(y - mu) / s));
  const double weibull = -std::pow((y + 3) / 2, s);
  const double student = std::log(bm::cdf(bm::complement(bm::students_t_distribution<double>(3), (y - mu) / s)));
  const double gamma = std::log(bm::gamma_p(s, 1.5 * (y + 3)));
  const double normal = std::log(bm::cdf(bm::normal_distribution<double>(mu, s), y));
  const double ref = z[1] + normal + weibull + std::log(logistic) + student + gamma;
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), ref, 1e-12 * (1 + std::fabs(ref)));
}

}  // namespace
}  // namespace pvi::test
