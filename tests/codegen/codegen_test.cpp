// Generated code end to end: source -> IR -> reverse-mode AD -> LLVM -> JIT, evaluated through
// the factor ABI. Values are compared with hand-written log densities, gradients with central
// finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

class ExampleGradientTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleGradientTest, GradientsMatchFiniteDifferences) {
  std::string source = readExample(GetParam());
  Compiled c = compileModel(source);
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(20261121);
  for (int trial = 0; trial < 3; ++trial) {
    GeneratedData data = randomData(*c.front.checked, 3, rng);
    CompiledModel m(c.jit->code(), c.lowered->schema, std::move(data.shared), std::move(data.partitions));
    checkGradients(m, rng);
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleGradientTest,
                         ::testing::Values("linear_regression", "logistic_regression", "hierarchical_logistic",
                                           "six_cities", "clutter", "poisson_random_effect", "bnn_classifier"));

// The clutter example (a loop of mixture terms) against its log density written by hand.
TEST(Codegen, ClutterLoopValueMatchesHandWritten) {
  Compiled c = compileModel(readExample("clutter"));
  ASSERT_TRUE(c.jit) << c.errors;
  const double w = 0.3, a = 10.0, priorSd = 10.0;
  const std::vector<double> x = {0.5, -1.2, 3.3, 2.0, 9.0};
  DataBlock shared;
  shared.addReal(w).addReal(a).addReal(priorSd);
  DataBlock part;
  part.addInt(static_cast<int64_t>(x.size())).addReals(x);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  double theta = 0.7;
  double expected = 0;
  for (double xn : x)
    expected += std::log((1 - w) * std::exp(normalLpdf(xn, theta, 1)) + w * std::exp(normalLpdf(xn, 0, std::sqrt(a))));
  double got = m.partitionLogDensity(0, &theta, nullptr, nullptr, nullptr, nullptr, nullptr);
  EXPECT_NEAR(got, expected, 1e-12 * std::fabs(expected));
  std::mt19937_64 rng(9);
  checkGradients(m, rng);
}

// Nested loops, if/else on data, and index arithmetic inside loops.
TEST(Codegen, NestedLoopsAndBranches) {
  Compiled c = compileModel(R"(
@partition(silo)
data { int K; }
data per silo { int N; matrix[N, K] Y; array[N] int g; }
global { vector[K] mu; real<lower=0> s; }
model {
  mu ~ normal(0, 2);
  s ~ exponential(1);
  for (n in 1:N) {
    for (k in 1:K) {
      if (g[n] == 1) {
        Y[n, k] ~ normal(mu[k], s);
      } else if (n > 1) {
        target += normal_lpdf(Y[n, k] | mu[k] * 2, s) + normal_lpdf(Y[n - 1, k] | 0, 3);
      } else {
        Y[n, k] ~ cauchy(mu[k], 1);
      }
    }
  }
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const int64_t N = 4, K = 3;
  std::mt19937_64 rng(13);
  std::vector<double> Y = randomVector(N * K, rng, 1.5);
  std::vector<int64_t> g = {2, 1, 2, 2};
  DataBlock shared, part;
  shared.addInt(K);
  part.addInt(N).addReals(Y).addInts(g);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  std::vector<double> z = {0.3, -0.5, 1.1, 0.2};  // mu[1..3], log s
  double s = std::exp(z[3]);
  double expected = 0;
  auto y = [&](int64_t n, int64_t k) { return Y[static_cast<size_t>(n + k * N)]; };
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) {
      if (g[static_cast<size_t>(n)] == 1) expected += normalLpdf(y(n, k), z[k], s);
      else if (n + 1 > 1) expected += normalLpdf(y(n, k), 2 * z[k], s) + normalLpdf(y(n - 1, k), 0, 3);
      else expected += -std::log(M_PI) - std::log1p((y(n, k) - z[k]) * (y(n, k) - z[k]));
    }
  double got = m.partitionLogDensity(0, z.data(), nullptr, nullptr, nullptr, nullptr, nullptr);
  EXPECT_NEAR(got, expected, 1e-12 * std::fabs(expected));
  checkGradients(m, rng);
}

// The linear regression example against its log density written by hand.
TEST(Codegen, LinearRegressionValueMatchesHandWritten) {
  Compiled c = compileModel(readExample("linear_regression"));
  ASSERT_TRUE(c.jit) << c.errors;
  const int64_t D = 3, N = 7;
  const double sigma = 0.8, priorSd = 2.5;
  std::mt19937_64 rng(7);
  std::vector<double> X = randomVector(N * D, rng, 1.0), y = randomVector(N, rng, 2.0);
  DataBlock shared;
  shared.addInt(D).addReal(sigma).addReal(priorSd);
  DataBlock part;
  part.addInt(N).addReals(X).addReals(y);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  ASSERT_EQ(m.globalDim(), static_cast<size_t>(D + 1));
  std::vector<double> z = randomVector(D + 1, rng);  // alpha, beta[1..D]

  double prior = 0;
  for (double v : z) prior += normalLpdf(v, 0, priorSd);
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior, 1e-12 * std::fabs(prior));

  double lik = 0;
  for (int64_t n = 0; n < N; ++n) {
    double mu = z[0];
    for (int64_t d = 0; d < D; ++d) mu += X[n + d * N] * z[1 + d];  // column-major X
    lik += normalLpdf(y[n], mu, sigma);
  }
  EXPECT_NEAR(m.partitionLogDensity(0, z.data(), nullptr, nullptr, nullptr, nullptr, nullptr), lik,
              1e-12 * std::fabs(lik));
}

// Bounded globals and locals: the constrained value is used and the log-Jacobian is added
// exactly once, in the owning factor.
TEST(Codegen, BoundsAddTheirJacobianOnceInTheOwningFactor) {
  Compiled c = compileModel(R"(
@partition(silo)
data per silo { int N; vector[N] y; }
global { real<lower=0> s; real<lower=-1, upper=2> r; real<upper=3> u; }
local per silo { real<lower=0.5> t; }
model {
  s ~ exponential(1);
  r ~ normal(0, 1);
  u ~ normal(0, 1);
  t ~ normal(1, 1);
  y ~ normal(r * t + u, s);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock part;
  part.addInt(3).addReals({0.3, -0.2, 1.1});
  CompiledModel m(c.jit->code(), c.lowered->schema, DataBlock{}, {part});
  std::vector<double> z = {0.2, -0.4, 0.7}, w = {0.1};
  double s = std::exp(z[0]);
  double sig = 1 / (1 + std::exp(-z[1]));
  double r = -1 + 3 * sig;
  double u = 3 - std::exp(z[2]);
  double t = 0.5 + std::exp(w[0]);
  double prior = std::log(1.0) - s + normalLpdf(r, 0, 1) + normalLpdf(u, 0, 1)
                 + z[0] + (std::log(3.0) + std::log(sig) + std::log(1 - sig)) + z[2];  // Jacobians of s, r, u
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior, 1e-12);
  double part0 = normalLpdf(t, 1, 1) + w[0];  // t's Jacobian, here and only here
  for (double y : {0.3, -0.2, 1.1}) part0 += normalLpdf(y, r * t + u, s);
  EXPECT_NEAR(m.partitionLogDensity(0, z.data(), w.data(), nullptr, nullptr, nullptr, nullptr), part0, 1e-12);
  std::mt19937_64 rng(3);
  checkGradients(m, rng);
}

TEST(Codegen, IndexOutOfRangeInDataIsAnErrorNotACrash) {
  Compiled c = compileModel(R"(
@partition(silo)
data per silo { int N; int C; array[N] int g; vector[N] y; }
local per silo { vector[C] b; }
model { b ~ normal(0, 1); y ~ normal(b[g], 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock part;
  part.addInt(2).addInt(2).addInts({1, 3}).addReals({0.0, 1.0});  // g = 3 > C
  CompiledModel m(c.jit->code(), c.lowered->schema, DataBlock{}, {part});
  std::vector<double> w = {0.0, 0.0};
  EXPECT_THROW(m.partitionLogDensity(0, nullptr, w.data(), nullptr, nullptr, nullptr, nullptr), ModelEvaluationError);
}

TEST(Codegen, OutOfSupportGivesMinusInfinity) {
  Compiled c = compileModel("data { real s; }\nglobal { real mu; }\nmodel { mu ~ normal(0, s); }\n");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addReal(-1.0);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  double z = 0.3;
  EXPECT_EQ(m.priorLogDensity(&z, nullptr, nullptr, nullptr), -INFINITY);
}

}  // namespace
}  // namespace pvi::test
