// Multivariate and categorical densities through the whole pipeline: values against formulas
// written here, gradients against finite differences.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

double gradientError(const CompiledModel& m, std::vector<double> z) {
  std::vector<double> g(z.size());
  double f = m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
  auto fd = finiteDifference([&](const std::vector<double>& x) { return m.priorLogDensity(x.data(), nullptr, nullptr, nullptr); }, z);
  double worst = 0;
  for (size_t i = 0; i < g.size(); ++i)
    worst = std::max(worst, std::fabs(g[i] - fd[i]) / (1e-6 * std::max(1.0, std::fabs(fd[i])) + 1e-9 * std::fabs(f)));
  return worst;  // <= 1 passes
}

// At three random points: a's prior factor equals b's (finite), and a's gradient matches finite
// differences.
void expectSameDensity(const CompiledModel& a, const CompiledModel& b, std::mt19937_64& rng) {
  ASSERT_EQ(a.globalDim(), b.globalDim());
  for (int trial = 0; trial < 3; ++trial) {
    const std::vector<double> z = randomVector(a.globalDim(), rng, 0.7);
    const double va = a.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    const double vb = b.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    ASSERT_TRUE(std::isfinite(vb));
    EXPECT_NEAR(va, vb, 1e-10 * (1 + std::fabs(vb)));
    EXPECT_LE(gradientError(a, z), 1.0);
  }
}

TEST(Multivariate, MultiNormalAndCholesky) {
  Compiled c = compileModel(R"(
data { int K; vector[K] y; matrix[K, K] Sigma; matrix[K, K] L; }
global { vector[K] mu; vector[K] nu; }
model { y ~ multi_normal(mu, Sigma); y ~ multi_normal_cholesky(nu, L); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const int K = 3;
  Eigen::MatrixXd A(K, K);
  A << 2.0, 0.3, -0.2, 0.3, 1.5, 0.4, -0.2, 0.4, 1.2;
  Eigen::MatrixXd L = A.llt().matrixL();
  Eigen::VectorXd y(K);
  y << 0.4, -1.0, 2.0;
  DataBlock shared;
  shared.addInt(K).addReals({y.data(), y.data() + K}).addReals({A.data(), A.data() + K * K});
  shared.addReals({L.data(), L.data() + K * K});
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = {0.1, 0.2, -0.3, -0.5, 0.0, 0.7};
  auto mvn = [&](const Eigen::VectorXd& mean) {
    Eigen::VectorXd r = y - mean;
    return -0.5 * r.dot(A.llt().solve(r)) - 0.5 * std::log(A.determinant()) - 0.5 * K * std::log(2 * M_PI);
  };
  double expected = mvn(Eigen::Map<Eigen::VectorXd>(z.data(), K)) + mvn(Eigen::Map<Eigen::VectorXd>(z.data() + K, K));
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), expected, 1e-12 * std::fabs(expected));
  EXPECT_LE(gradientError(m, z), 1.0);
}

// multi_normal over arrays of vectors (the variate, the mean or both, as in Stan) is the sum over
// the variates of the one-vector density: the same program with a loop gives the same value, and
// the gradient matches finite differences. (The kernel factors the matrix once for all of them.)
TEST(Multivariate, MultiNormalOverArraysOfVectorsIsTheSumOverVariates) {
  const char* vectorised = R"(
data { int K; int N; array[N] vector[K] y; }
global { vector[K] mu; array[N] vector[K] m; cholesky_factor_corr[K] Lc; vector<lower=0>[K] s; }
model {
  matrix[K, K] Sigma = quad_form_diag(multiply_lower_tri_self_transpose(Lc), s);
  y ~ multi_normal(mu, Sigma);
  m ~ multi_normal(y, Sigma);
  mu ~ multi_normal(m, Sigma);
  y ~ multi_normal_cholesky(mu, diag_pre_multiply(s, Lc));
  target += multi_normal_cholesky_lpdf(m | y, diag_pre_multiply(s, Lc));
}
)";
  const char* looped = R"(
data { int K; int N; array[N] vector[K] y; }
global { vector[K] mu; array[N] vector[K] m; cholesky_factor_corr[K] Lc; vector<lower=0>[K] s; }
model {
  matrix[K, K] Sigma = quad_form_diag(multiply_lower_tri_self_transpose(Lc), s);
  for (n in 1:N) {
    y[n] ~ multi_normal(mu, Sigma);
    m[n] ~ multi_normal(y[n], Sigma);
    mu ~ multi_normal(m[n], Sigma);
    y[n] ~ multi_normal_cholesky(mu, diag_pre_multiply(s, Lc));
    target += multi_normal_cholesky_lpdf(m[n] | y[n], diag_pre_multiply(s, Lc));
  }
}
)";
  Compiled a = compileModel(vectorised), b = compileModel(looped);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  const int K = 3, N = 4;
  std::mt19937_64 rng(17);
  DataBlock shared;
  shared.addInt(K).addInt(N).addReals(randomVector(K * N, rng, 1.0));
  CompiledModel ma(a.jit->code(), a.lowered->schema, shared, {});
  CompiledModel mb(b.jit->code(), b.lowered->schema, shared, {});
  expectSameDensity(ma, mb, rng);
}

// eigenvalues_sym and eigenvectors_sym of a covariance built from parameters: the multivariate
// normal density written through S = Q diag(lambda) Q' equals multi_normal's, value and gradient
// (the gradients through both decompositions, against finite differences).
TEST(Multivariate, MultiNormalThroughTheEigendecomposition) {
  const char* header = R"(
data { int K; vector[K] y; }
global { cholesky_factor_corr[K] Lc; vector<lower=0>[K] s; }
model {
  matrix[K, K] S = quad_form_diag(multiply_lower_tri_self_transpose(Lc), s);
)";
  Compiled a = compileModel(std::string(header) + R"(
  vector[K] lambda = eigenvalues_sym(S);
  matrix[K, K] Q = eigenvectors_sym(S);
  target += -0.5 * K * log(2 * pi()) - 0.5 * sum(log(lambda)) - 0.5 * sum(square(Q' * y) ./ lambda);
}
)");
  Compiled b = compileModel(std::string(header) + "  target += multi_normal_lpdf(y | rep_vector(0, K), S);\n}\n");
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  const int K = 3;
  std::mt19937_64 rng(23);
  DataBlock shared;
  shared.addInt(K).addReals(randomVector(K, rng, 1.0));
  CompiledModel ma(a.jit->code(), a.lowered->schema, shared, {});
  CompiledModel mb(b.jit->code(), b.lowered->schema, shared, {});
  expectSameDensity(ma, mb, rng);
}

TEST(Multivariate, DirichletOfASoftmax) {
  Compiled c = compileModel(R"(
data { int K; vector<lower=0>[K] alpha; }
global { vector[K] eta; }
model { eta ~ normal(0, 1); softmax(eta) ~ dirichlet(alpha); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(3).addReals({1.5, 2.0, 0.7});
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = {0.2, -0.4, 0.9};
  double mx = *std::max_element(z.begin(), z.end()), s = 0;
  for (double v : z) s += std::exp(v - mx);
  std::vector<double> alpha = {1.5, 2.0, 0.7};
  double expected = std::lgamma(4.2);
  for (int i = 0; i < 3; ++i) {
    double theta = std::exp(z[i] - mx) / s;
    expected += (alpha[i] - 1) * std::log(theta) - std::lgamma(alpha[i]) - 0.5 * z[i] * z[i] - 0.5 * std::log(2 * M_PI);
  }
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), expected, 1e-12 * std::fabs(expected));
  EXPECT_LE(gradientError(m, z), 1.0);
}

// Five outcomes (y = {1, 3, 3, 2} and first = 2) of a categorical over K = 3 with logits beta
// under a standard normal prior: the value against the formula, the gradient against finite
// differences. `statements` uses beta and the data y and first.
void expectCategoricalOfLogits(const std::string& statements) {
  Compiled c = compileModel(R"(
data { int N; int K; array[N] int<lower=1, upper=K> y; int<lower=1, upper=K> first; }
global { vector[K] beta; }
model { beta ~ normal(0, 1); )" + statements + " }\n");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(4).addInt(3).addInts({1, 3, 3, 2}).addInt(2);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = {0.5, -0.2, 1.1};
  double lse = std::log(std::exp(0.5) + std::exp(-0.2) + std::exp(1.1));
  double expected = 0;
  for (int y : {1, 3, 3, 2, 2}) expected += z[static_cast<size_t>(y - 1)] - lse;
  for (double v : z) expected += -0.5 * v * v - 0.5 * std::log(2 * M_PI);
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), expected, 1e-12 * std::fabs(expected));
  EXPECT_LE(gradientError(m, z), 1.0);
}

TEST(Multivariate, CategoricalLogit) {
  expectCategoricalOfLogits("y ~ categorical_logit(beta); first ~ categorical_logit(beta);");
}

// categorical(theta) with theta = softmax(beta) is categorical_logit(beta): the same value, and
// the gradient through softmax against finite differences.
TEST(Multivariate, CategoricalOfProbabilities) {
  expectCategoricalOfLogits("y ~ categorical(softmax(beta)); target += categorical_lpmf(first | softmax(beta));");
}

}  // namespace
}  // namespace pvi::test
