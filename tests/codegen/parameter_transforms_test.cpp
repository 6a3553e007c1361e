// Stan's offset and multiplier, and bounds that read earlier parameters: each program has the
// same log density, value and gradient, as the program with the transform and its log-Jacobian
// written out by hand; the gradients match finite differences; the constrain and unconstrain maps
// invert each other, for globals and for locals whose transforms read the globals.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

// Eight schools, non-centred by the declaration.
const char* kOffsetMultiplier = R"(
data { int<lower=0> J; vector[J] y; vector<lower=0>[J] sigma; }
parameters { real mu; real<lower=0> tau; vector<offset=mu, multiplier=tau>[J] theta; real<multiplier=3> e; }
model {
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  theta ~ normal(mu, tau);
  y ~ normal(theta, sigma);
  e ~ normal(0, 3);
}
)";

const char* kOffsetMultiplierWrittenOut = R"(
data { int<lower=0> J; vector[J] y; vector<lower=0>[J] sigma; }
parameters { real mu; real<lower=0> tau; vector[J] theta_raw; real e_raw; }
model {
  vector[J] theta = mu + tau * theta_raw;
  real e = 3 * e_raw;
  target += J * log(tau) + log(3);
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  theta ~ normal(mu, tau);
  y ~ normal(theta, sigma);
  e ~ normal(0, 3);
}
)";

DataBlock eightSchools() {
  DataBlock d;
  d.addInt(8);
  d.addReals({28, 8, -3, 7, -1, 1, 18, 12});
  d.addReals({15, 10, 16, 11, 9, 11, 10, 18});
  return d;
}

TEST(ParameterTransforms, OffsetAndMultiplierEqualTheNonCentredProgramWrittenOut) {
  Compiled a = compileModel(kOffsetMultiplier), b = compileModel(kOffsetMultiplierWrittenOut);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  CompiledModel ma(a.jit->code(), a.lowered->info, eightSchools(), {});
  CompiledModel mb(b.jit->code(), b.lowered->info, eightSchools(), {});
  std::mt19937_64 rng(5);
  expectSamePriorFactor(ma, mb, rng, 5, 0.8);
  checkGradients(ma, rng);
  // theta = mu + tau * u, written out; unconstraining gives u back.
  const std::vector<double> z = randomVector(ma.globalDim(), rng, 0.8);
  const std::vector<double> x = ma.constrainGlobals(z.data(), nullptr);
  ASSERT_EQ(x.size(), 11u);
  const double tau = std::exp(z[1]);
  EXPECT_DOUBLE_EQ(x[1], tau);
  for (size_t j = 0; j < 8; ++j) EXPECT_NEAR(x[2 + j], z[0] + tau * z[2 + j], 1e-14) << j;
  EXPECT_NEAR(x[10], 3 * z[10], 1e-15);
  const std::vector<double> back = ma.unconstrainGlobals(x.data());
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(back[i], z[i], 1e-12) << i;
  EXPECT_EQ(a.lowered->info.globals[2].transform.kind, TransformKind::Affine);
  EXPECT_EQ(a.lowered->info.globals[2].transform.offset.expr, "mu");
  EXPECT_EQ(a.lowered->info.globals[2].transform.multiplier.expr, "tau");
  EXPECT_EQ(a.lowered->info.globals[3].transform.offset.expr, "");
}

// Bounds that read earlier parameters: b in (0, a), c in (-a, b) element by element.
const char* kDependentBounds = R"(
parameters {
  real<lower=0, upper=1> a;
  real<lower=0, upper=a> b;
  vector<lower=-a, upper=b>[2] c;
  real<lower=b> d;
  real<upper=c[1]> e;
}
model { d ~ normal(1, 1); e ~ normal(0, 1); c ~ normal(0, 1); }
)";

const char* kDependentBoundsWrittenOut = R"(
parameters { real<lower=0, upper=1> a; real b_raw; vector[2] c_raw; real d_raw; real e_raw; }
model {
  real b = a * inv_logit(b_raw);
  vector[2] c = -a + (b + a) * inv_logit(c_raw);
  real d = b + exp(d_raw);
  real e = c[1] - exp(e_raw);
  target += log(a) + log_inv_logit(b_raw) + log1m_inv_logit(b_raw);
  target += 2 * log(b + a) + sum(log_inv_logit(c_raw)) + sum(log1m_inv_logit(c_raw));
  target += d_raw + e_raw;
  d ~ normal(1, 1);
  e ~ normal(0, 1);
  c ~ normal(0, 1);
}
)";

TEST(ParameterTransforms, BoundsThatReadEarlierParametersEqualTheTransformsWrittenOut) {
  Compiled a = compileModel(kDependentBounds), b = compileModel(kDependentBoundsWrittenOut);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  CompiledModel ma(a.jit->code(), a.lowered->info, DataBlock{}, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, DataBlock{}, {});
  std::mt19937_64 rng(6);
  expectSamePriorFactor(ma, mb, rng, 5, 1.0);
  checkGradients(ma, rng);
  const std::vector<double> z = randomVector(ma.globalDim(), rng, 1.0);
  const std::vector<double> x = ma.constrainGlobals(z.data(), nullptr);
  ASSERT_EQ(x.size(), 6u);
  EXPECT_GT(x[1], 0);
  EXPECT_LT(x[1], x[0]);
  for (size_t k : {2u, 3u}) {
    EXPECT_GT(x[k], -x[0]);
    EXPECT_LT(x[k], x[1]);
  }
  EXPECT_GT(x[4], x[1]);
  EXPECT_LT(x[5], x[2]);
  const std::vector<double> back = ma.unconstrainGlobals(x.data());
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(back[i], z[i], 1e-9) << i;
  // A value outside the bounds that the earlier values set is refused.
  std::vector<double> bad = x;
  bad[1] = x[0] + 0.1;
  EXPECT_THROW(ma.unconstrainGlobals(bad.data()), std::invalid_argument);
}

// Locals whose offset, multiplier and bounds read the globals and an earlier local (`offset` is
// also a name, as in Stan).
const char* kLocalsReadGlobals = R"(
@partition(g)
data { real offset; }
data per g { int<lower=0> n; vector[n] y; }
parameters { real mu; real<lower=0> tau; }
local per g { real<offset=mu, multiplier=tau> theta; real<lower=theta + offset> top; }
model {
  mu ~ normal(0, 2);
  tau ~ normal(0, 1);
  theta ~ normal(mu, tau);
  top ~ normal(theta + 1, 1);
  y ~ normal(theta, 1);
}
)";

TEST(ParameterTransforms, LocalsWhoseTransformsReadTheGlobalsMapBothWays) {
  Compiled c = compileModel(kLocalsReadGlobals);
  ASSERT_TRUE(c.jit) << c.errors;
  std::vector<DataBlock> parts(2);
  parts[0].addInt(3);
  parts[0].addReals({0.5, 1.5, -0.2});
  parts[1].addInt(1);
  parts[1].addReals({2.0});
  DataBlock shared;
  shared.addReal(0.25);
  CompiledModel m(c.jit->code(), c.lowered->info, shared, parts);
  std::mt19937_64 rng(7);
  checkGradients(m, rng);
  const std::vector<double> z = randomVector(m.globalDim(), rng), w = randomVector(m.localDim(1), rng);
  const std::vector<double> x = m.constrainLocals(1, z.data(), w.data(), nullptr);
  ASSERT_EQ(x.size(), 2u);
  const double theta = z[0] + std::exp(z[1]) * w[0];
  EXPECT_NEAR(x[0], theta, 1e-14);
  EXPECT_NEAR(x[1], theta + 0.25 + std::exp(w[1]), 1e-14);
  const std::vector<double> back = m.unconstrainLocals(1, z.data(), x.data(), nullptr);
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(back[i], w[i], 1e-12) << i;
}

}  // namespace
}  // namespace pvi::test
