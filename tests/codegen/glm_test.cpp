// The GLM densities: D_glm(y | x, alpha, beta, ...) must equal D(y | alpha + x * beta, ...), value
// and gradient (the expanded densities are checked against Boost.Math in tests/stdlib), for a
// scalar and a vector intercept, as '~' statements and as density calls; and their gradients
// against finite differences.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

struct GlmCase {
  const char* name;
  const char* glm;       // the model block with the GLM
  const char* expanded;  // the same model written out
};

const GlmCase kCases[] = {
    {"bernoulli_logit", "y ~ bernoulli_logit_glm(x, alpha, beta);", "y ~ bernoulli_logit(alpha + x * beta);"},
    {"bernoulli_logit_vector_intercept", "target += bernoulli_logit_glm_lpmf(y | x, a, beta);",
     "target += bernoulli_logit_lpmf(y | a + x * beta);"},
    {"poisson_log", "y ~ poisson_log_glm(x, alpha, beta);", "y ~ poisson_log(alpha + x * beta);"},
    {"normal_id", "z ~ normal_id_glm(x, alpha, beta, sigma);", "z ~ normal(alpha + x * beta, sigma);"},
    {"normal_id_vector_intercept", "target += normal_id_glm_lpdf(z | x, a, beta, sigma);",
     "target += normal_lpdf(z | a + x * beta, sigma);"},
};

std::string model(const char* body) {
  return std::string(R"(
data { int N; int K; matrix[N, K] x; array[N] int<lower=0, upper=1> y; vector[N] z; }
global { real alpha; vector[K] beta; vector[N] a; real<lower=0> sigma; }
model {
  alpha ~ normal(0, 1);
  beta ~ normal(0, 1);
  a ~ normal(0, 1);
  sigma ~ exponential(1);
  )") + body + "\n}\n";
}

class Glm : public ::testing::TestWithParam<GlmCase> {};

TEST_P(Glm, EqualsTheDensityOfTheLinearPredictor) {
  const GlmCase& c = GetParam();
  Compiled glm = compileModel(model(c.glm));
  Compiled expanded = compileModel(model(c.expanded));
  ASSERT_TRUE(glm.jit) << glm.errors;
  ASSERT_TRUE(expanded.jit) << expanded.errors;
  std::mt19937_64 rng(12);
  const size_t N = 5, K = 3;
  DataBlock shared;
  shared.addInt(N).addInt(K).addReals(randomVector(N * K, rng, 1.0)).addInts({0, 1, 1, 0, 1}).addReals(
      randomVector(N, rng, 2.0));
  CompiledModel a(glm.jit->code(), glm.lowered->info, shared, {});
  CompiledModel b(expanded.jit->code(), expanded.lowered->info, shared, {});
  ASSERT_EQ(a.globalDim(), b.globalDim());
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<double> z = randomVector(a.globalDim(), rng, 0.8), ga(z.size()), gb(z.size());
    const double va = a.priorLogDensity(z.data(), nullptr, ga.data(), nullptr);
    const double vb = b.priorLogDensity(z.data(), nullptr, gb.data(), nullptr);
    EXPECT_NEAR(va, vb, 1e-12 * std::fabs(vb));
    for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(ga[i], gb[i], 1e-12 * (1 + std::fabs(gb[i]))) << i;
  }
  checkGradients(a, rng);
}

INSTANTIATE_TEST_SUITE_P(Densities, Glm, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<GlmCase>& i) { return std::string(i.param.name); });

TEST(GlmSizes, TheColumnsOfXMatchTheCoefficients) {
  Compiled c = compileModel(R"(
data { int N; matrix[N, 3] x; array[N] int y; }
global { real alpha; vector[2] beta; }
model { alpha ~ normal(0, 1); beta ~ normal(0, 1); y ~ bernoulli_logit_glm(x, alpha, beta); }
)");
  EXPECT_FALSE(c.jit);
  EXPECT_NE(c.errors.find("the columns of x and the coefficients beta of 'bernoulli_logit_glm' differ in number"),
            std::string::npos)
      << c.errors;
}

}  // namespace
}  // namespace pvi::test
