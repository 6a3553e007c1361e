// Multivariate and categorical densities through the whole pipeline: values against formulas
// written here, gradients against finite differences.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

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
