// The values of the remaining examples' factors against their log densities written by hand in
// plain C++ (linear regression and clutter are in codegen_test.cpp). Data are random but valid.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

double normalLpdf(double y, double mu, double sigma) {
  double z = (y - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2 * M_PI);
}
double bernoulliLogit(int64_t y, double a) { return y ? -std::log1p(std::exp(-a)) : -std::log1p(std::exp(a)); }
double poissonLog(int64_t y, double a) { return y * a - std::exp(a) - std::lgamma(static_cast<double>(y) + 1); }

std::vector<double> uniform(size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}
std::vector<int64_t> integers(size_t n, std::mt19937_64& rng, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> u(lo, hi);
  std::vector<int64_t> v(n);
  for (int64_t& x : v) x = u(rng);
  return v;
}

void expectRelNear(double got, double expected) { EXPECT_NEAR(got, expected, 1e-12 * std::max(1.0, std::fabs(expected))); }

TEST(HandWritten, LogisticRegression) {
  Compiled c = compileModel(readExample("logistic_regression"));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(21);
  const int64_t D = 3, N = 9, Ntest = 2;
  const double priorSd = 1.7;
  auto X = uniform(N * D, rng, -2, 2);
  auto y = integers(N, rng, 0, 1);
  DataBlock shared, part;
  shared.addInt(D).addReal(priorSd).addInt(Ntest).addReals(uniform(Ntest * D, rng, -1, 1)).addInts({0, 1});
  part.addInt(N).addReals(X).addInts(y);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  auto z = uniform(D + 1, rng, -1, 1);  // alpha, beta
  double prior = 0;
  for (double v : z) prior += normalLpdf(v, 0, priorSd);
  expectRelNear(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior);
  double lik = 0;
  for (int64_t n = 0; n < N; ++n) {
    double eta = z[0];
    for (int64_t d = 0; d < D; ++d) eta += X[n + d * N] * z[1 + d];
    lik += bernoulliLogit(y[n], eta);
  }
  expectRelNear(m.partitionLogDensity(0, z.data(), nullptr, nullptr, nullptr, nullptr, nullptr), lik);
}

TEST(HandWritten, PoissonRandomEffectWithHyperparameter) {
  Compiled c = compileModel(readExample("poisson_random_effect"));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(22);
  const int64_t N = 6;
  auto x = uniform(N, rng, -1, 1);
  auto y = integers(N, rng, 0, 7);
  DataBlock part;
  part.addInt(N).addReals(x).addInts(y);
  CompiledModel m(c.jit->code(), c.lowered->schema, DataBlock{}, {part});
  ASSERT_EQ(m.hyperDim(), 1u);
  std::vector<double> z = {0.4, -0.3}, theta = {-0.2}, w = {0.25};  // alpha, beta; log sigma_u; u
  double sigmaU = std::exp(theta[0]);
  // sigma_u's log-Jacobian belongs to the prior factor, where hyperparameters live.
  double prior = normalLpdf(z[0], 0, 5) + normalLpdf(z[1], 0, 5) + theta[0];
  expectRelNear(m.priorLogDensity(z.data(), theta.data(), nullptr, nullptr), prior);
  double part0 = normalLpdf(w[0], 0, sigmaU);
  for (int64_t n = 0; n < N; ++n) part0 += poissonLog(y[n], z[0] + z[1] * x[n] + w[0]);
  expectRelNear(m.partitionLogDensity(0, z.data(), w.data(), theta.data(), nullptr, nullptr, nullptr), part0);
}

TEST(HandWritten, SixCities) {
  Compiled c = compileModel(readExample("six_cities"));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(23);
  const int64_t C = 3, N = 8;
  const double priorSd = 10;
  auto child = integers(N, rng, 1, C);
  auto age = uniform(N, rng, -2, 1);
  auto smoke = uniform(N, rng, 0, 1);
  auto wheeze = integers(N, rng, 0, 1);
  DataBlock shared, part;
  shared.addReal(priorSd);
  part.addInt(C).addInt(N).addInts(child).addReals(age).addReals(smoke).addInts(wheeze);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  auto z = uniform(5, rng, -1, 1);  // beta[1..4], omega
  auto b = uniform(C, rng, -1, 1);
  double prior = 0;
  for (double v : z) prior += normalLpdf(v, 0, priorSd);
  expectRelNear(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior);
  double part0 = 0;
  for (double v : b) part0 += normalLpdf(v, 0, std::exp(-z[4]));
  for (int64_t n = 0; n < N; ++n) {
    double eta = z[0] + z[1] * smoke[n] + z[2] * age[n] + z[3] * smoke[n] * age[n] + b[static_cast<size_t>(child[n] - 1)];
    part0 += bernoulliLogit(wheeze[n], eta);
  }
  expectRelNear(m.partitionLogDensity(0, z.data(), b.data(), nullptr, nullptr, nullptr, nullptr), part0);
}

TEST(HandWritten, HierarchicalLogistic) {
  Compiled c = compileModel(readExample("hierarchical_logistic"));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(24);
  const int64_t N = 7;
  const double priorSd = 2.5, tauSd = 1.5;
  auto use = integers(N, rng, 0, 1);
  auto urban = uniform(N, rng, 0, 1), age = uniform(N, rng, -10, 10);
  auto l1 = uniform(N, rng, 0, 1), l2 = uniform(N, rng, 0, 1), l3 = uniform(N, rng, 0, 1);
  DataBlock shared, part;
  shared.addReal(priorSd).addReal(tauSd);
  part.addInt(N).addInts(use).addReals(urban).addReals(age).addReals(l1).addReals(l2).addReals(l3);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  // alpha, b_urban, b_age, b_livch[1..3], log tau
  std::vector<double> z = {0.1, 0.3, -0.02, 0.5, 0.6, 0.4, -0.7};
  std::vector<double> w = {0.2};
  double tau = std::exp(z[6]);
  double prior = 0;
  for (int k = 0; k < 6; ++k) prior += normalLpdf(z[static_cast<size_t>(k)], 0, priorSd);
  prior += normalLpdf(tau, 0, tauSd) + z[6];  // half-normal through the lower bound: log-Jacobian log tau
  expectRelNear(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior);
  double part0 = normalLpdf(w[0], 0, tau);
  for (int64_t n = 0; n < N; ++n)
    part0 += bernoulliLogit(use[n], z[0] + w[0] + z[1] * urban[n] + z[2] * age[n] + z[3] * l1[n] + z[4] * l2[n] +
                                        z[5] * l3[n]);
  expectRelNear(m.partitionLogDensity(0, z.data(), w.data(), nullptr, nullptr, nullptr, nullptr), part0);
}

TEST(HandWritten, BayesianNeuralNetwork) {
  Compiled c = compileModel(readExample("bnn_classifier"));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(25);
  const int64_t D = 3, H = 4, N = 5, Ntest = 2;
  const double priorSd = 1.2;
  auto X = uniform(N * D, rng, -1, 1);
  auto y = integers(N, rng, 0, 1);
  DataBlock shared, part;
  shared.addInt(D).addInt(H).addReal(priorSd).addInt(Ntest).addReals(uniform(Ntest * D, rng, -1, 1)).addInts({1, 0});
  part.addInt(N).addReals(X).addInts(y);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  // W1 (D x H, column-major), b1 (H), w2 (H), b2
  auto z = uniform(D * H + H + H + 1, rng, -1, 1);
  const double* W1 = z.data();
  const double* b1 = W1 + D * H;
  const double* w2 = b1 + H;
  double b2 = w2[H];
  double prior = 0;
  for (double v : z) prior += normalLpdf(v, 0, priorSd);
  expectRelNear(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), prior);
  double lik = 0;
  for (int64_t n = 0; n < N; ++n) {
    double out = b2;
    for (int64_t h = 0; h < H; ++h) {
      double a = b1[h];
      for (int64_t d = 0; d < D; ++d) a += X[n + d * N] * W1[d + h * D];
      out += std::tanh(a) * w2[h];
    }
    lik += bernoulliLogit(y[n], out);
  }
  expectRelNear(m.partitionLogDensity(0, z.data(), nullptr, nullptr, nullptr, nullptr, nullptr), lik);
}

// Stan's reductions and log10 in a model: the value against the same sums in C++, the gradients
// against central differences (checkGradients).
TEST(HandWritten, ReductionsAndLog10) {
  Compiled c = compileModel(R"(
data { int N; vector[N] y; }
global { vector[N] x; }
model {
  target += dot_self(x) - 0.1 * prod(x) + variance(x) - sd(x) + sum(log10(y)) + sum(log10(exp(x) + 1));
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(5);
  const int64_t N = 5;
  auto y = uniform(N, rng, 0.1, 10);
  DataBlock shared;
  shared.addInt(N).addReals(y);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  auto x = uniform(N, rng, -1.5, 1.5);
  double self = 0, prod = 1, mean = 0, logs = 0;
  for (int64_t i = 0; i < N; ++i) {
    self += x[i] * x[i];
    prod *= x[i];
    mean += x[i] / N;
    logs += std::log10(y[i]) + std::log10(std::exp(x[i]) + 1);
  }
  double ss = 0;
  for (int64_t i = 0; i < N; ++i) ss += (x[i] - mean) * (x[i] - mean);
  const double variance = ss / (N - 1);
  expectRelNear(m.priorLogDensity(x.data(), nullptr, nullptr, nullptr),
                self - 0.1 * prod + variance - std::sqrt(variance) + logs);
  checkGradients(m, rng);
}

}  // namespace
}  // namespace pvi::test
