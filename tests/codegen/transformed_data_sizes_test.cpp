// Transformed data scalars that size and bound parameters (Stan's `int Kc = K - 1;` then
// `vector[Kc] beta;`), transformed parameters and generated quantities: the program equals the
// same program with the values written out, in its dimension, its element names, its outputs and
// its log density (value and gradient), and its gradients match finite differences. A scalar
// assigned again sizes them with its final value, as in Stan.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kTdSizesProgram = R"(
data { int<lower=2> K; real lo; vector[3] y; }
transformed data {
  int Kc = K - 1;
  int twice = 2 * Kc;
  real floor_value = lo * 2;
  vector[3] centred = y - mean(y);
}
parameters {
  vector[Kc] beta;
  array[twice] real<lower=floor_value> s;
  matrix[Kc, twice + 1] M;
}
transformed parameters {
  vector[Kc] shifted = beta + floor_value;
}
model {
  beta ~ normal(0, 1);
  s ~ normal(floor_value + 1, 2);
  to_vector(M) ~ normal(0, 1);
  centred ~ normal(beta[1] + s[twice], 1);
}
generated quantities {
  array[twice] real doubled;
  for (i in 1:twice) doubled[i] = 2 * s[i];
}
)";

const char* kTdSizesWrittenOut = R"(
data { int<lower=2> K; real lo; vector[3] y; }
parameters {
  vector[K - 1] beta;
  array[2 * (K - 1)] real<lower=lo * 2> s;
  matrix[K - 1, 2 * (K - 1) + 1] M;
}
transformed parameters {
  vector[K - 1] shifted = beta + lo * 2;
}
model {
  beta ~ normal(0, 1);
  s ~ normal(lo * 2 + 1, 2);
  to_vector(M) ~ normal(0, 1);
  (y - mean(y)) ~ normal(beta[1] + s[2 * (K - 1)], 1);
}
generated quantities {
  array[2 * (K - 1)] real doubled;
  for (i in 1:(2 * (K - 1))) doubled[i] = 2 * s[i];
}
)";

TEST(TransformedDataSizes, EqualTheProgramWithTheValuesWrittenOut) {
  Compiled a = compileModel(kTdSizesProgram);
  Compiled b = compileModel(kTdSizesWrittenOut);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  std::mt19937_64 rng(31);
  DataBlock shared;
  shared.addInt(3).addReal(-0.4).addReals({0.3, -1.2, 2.0});
  CompiledModel ma(a.jit->code(), a.lowered->info, shared, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, shared, {});
  ASSERT_EQ(ma.globalDim(), 2u + 4u + 2u * 5u);
  EXPECT_EQ(ma.globalNames(), mb.globalNames());
  // Transformed parameters and generated quantities sized by transformed data: the same outputs.
  EXPECT_EQ(ma.generatedSharedLayout().elementNames(), mb.generatedSharedLayout().elementNames());
  EXPECT_EQ(ma.generatedSharedLayout().elementNames().size(), 2u + 4u);
  EXPECT_EQ(a.lowered->info.globals[0].type, "vector[Kc]");
  expectSamePriorFactor(ma, mb, rng, 3, 0.8);
  checkGradients(ma, rng);
  // The bound is lo * 2 = -0.8: the constrained s are above it.
  std::vector<double> z(ma.globalDim(), -3.0);
  const std::vector<double> constrained = ma.constrainGlobals(z.data(), nullptr);
  EXPECT_NEAR(constrained[2], -0.8 + std::exp(-3.0), 1e-15);
}

TEST(TransformedDataSizes, AScalarAssignedAgainSizesWithItsFinalValue) {
  Compiled c = compileModel(R"(
data { int K; }
transformed data { int Kc = K - 1; Kc = Kc * 3; }
parameters { vector[Kc] beta; }
model { beta ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock d;
  d.addInt(3);
  CompiledModel m(c.jit->code(), c.lowered->info, d, {});
  EXPECT_EQ(m.globalDim(), 6u);
}

}  // namespace
}  // namespace pvi::test
