// Sizes and loop bounds that change inside loops: a buffer gets the largest size its loops give
// (ir::VType::cap), and a ragged loop's per-iteration copies the largest number of iterations.
// Each model's value is checked against the sum written out by hand and its gradient against
// finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "compiler/ir/Ir.hpp"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

double priorValue(const CompiledModel& m, std::vector<double> z, std::vector<double>* grad = nullptr) {
  if (grad) grad->assign(z.size(), 0.0);
  return m.priorLogDensity(z.data(), nullptr, grad ? grad->data() : nullptr, nullptr);
}

void expectPriorGradientMatchesFiniteDifferences(const CompiledModel& m, const std::vector<double>& z) {
  std::vector<double> g;
  const double f = priorValue(m, z, &g);
  auto value = [&](const std::vector<double>& x) { return priorValue(m, x); };
  expectGradientNear(g, finiteDifference(value, z), f, "prior");
}

TEST(LoopSizes, VectorSizedByTheLoopVariable) {
  Compiled c = compileModel(R"(
data { int N; }
global { real mu; }
model {
  for (n in 1:N) {
    vector[n] v = rep_vector(mu, n);
    target += -0.5 * dot_self(v);
  }
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(5);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  const double mu = 0.7;
  std::vector<double> g;
  EXPECT_NEAR(priorValue(m, {mu}, &g), -0.5 * mu * mu * 15, 1e-12);  // 1 + 2 + ... + 5 = 15
  EXPECT_NEAR(g[0], -mu * 15, 1e-12);
}

TEST(LoopSizes, SliceEndingAtTheLoopVariable) {
  Compiled c = compileModel(R"(
data { int N; }
global { vector[N] mu; }
model {
  for (n in 1:N) target += sum(mu[1:n]);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(4);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  const std::vector<double> mu = {0.3, -1.2, 0.5, 2.0};
  std::vector<double> g;
  double expected = 0;
  for (int n = 1; n <= 4; ++n)
    for (int k = 0; k < n; ++k) expected += mu[static_cast<size_t>(k)];
  EXPECT_NEAR(priorValue(m, mu, &g), expected, 1e-12);
  for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(g[k], static_cast<double>(4 - k), 1e-12) << k;
}

// A loop over 1:K[j] (posteriordb's bones): the data's largest K sizes the copies the gradient
// keeps; a K of 0 runs no iteration.
TEST(LoopSizes, RaggedLoopReadingWhatItAssigned) {
  Compiled c = compileModel(R"(
data { int N; array[N] int<lower=0, upper=4> K; }
global { real mu; }
model {
  array[N, 4] real q;
  real acc = 0;
  for (j in 1:N) {
    for (k in 1:K[j]) q[j, k] = mu * k + j;
    for (k in 2:K[j]) acc += q[j, k - 1] * q[j, k];
  }
  target += -0.5 * acc;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<int64_t> K = {3, 0, 4, 1, 2};
  DataBlock shared;
  shared.addInt(static_cast<int64_t>(K.size())).addInts(K);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  const double mu = -0.4;
  double acc = 0, dacc = 0;
  for (size_t j = 0; j < K.size(); ++j)
    for (int64_t k = 2; k <= K[j]; ++k) {
      const double a = mu * static_cast<double>(k - 1) + static_cast<double>(j + 1);
      const double b = mu * static_cast<double>(k) + static_cast<double>(j + 1);
      acc += a * b;
      dacc += static_cast<double>(k - 1) * b + a * static_cast<double>(k);
    }
  std::vector<double> g;
  EXPECT_NEAR(priorValue(m, {mu}, &g), -0.5 * acc, 1e-12);
  EXPECT_NEAR(g[0], -0.5 * dacc, 1e-12);
  expectPriorGradientMatchesFiniteDifferences(m, {mu});
}

// A triangular loop (j from i) and a loop whose bounds multiply the enclosing variable.
TEST(LoopSizes, TriangularAndScaledLoopsReadingWhatTheyAssigned) {
  Compiled c = compileModel(R"(
data { int N; }
global { vector[N] mu; }
model {
  real acc = 0;
  for (i in 1:N)
    for (j in i:N) acc += mu[i] * mu[j] * acc / (1 + acc * acc);
  real s = 0;
  for (i in 1:N)
    for (k in 1:(2 * i - 1)) s += mu[i] * s / (1 + s * s) + k * mu[i];
  target += acc + s;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(4);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  const std::vector<double> mu = {0.3, -1.2, 0.5, 0.9};
  double acc = 0, s = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i; j < 4; ++j) acc += mu[static_cast<size_t>(i)] * mu[static_cast<size_t>(j)] * acc / (1 + acc * acc);
  for (int i = 0; i < 4; ++i)
    for (int k = 1; k <= 2 * (i + 1) - 1; ++k)
      s += mu[static_cast<size_t>(i)] * s / (1 + s * s) + k * mu[static_cast<size_t>(i)];
  EXPECT_NEAR(priorValue(m, mu), acc + s, 1e-12);
  expectPriorGradientMatchesFiniteDifferences(m, mu);
}

// A convolution over everything before day i (posteriordb's covid19imperial): a slice of a
// variable the loop assigns, whose length is the loop variable, in a gradient the loop replays.
TEST(LoopSizes, ConvolutionOverAGrowingPrefix) {
  Compiled c = compileModel(R"(
data { int N; vector[N] s; }
global { real<lower=0> y0; real r; }
model {
  vector[N] pred = rep_vector(0, N);
  pred[1] = y0;
  for (i in 2:N) {
    real conv = dot_product(pred[1:(i - 1)], tail(s, i - 1));
    pred[i] = r * conv;
  }
  y0 ~ normal(1, 1);
  r ~ normal(0, 1);
  target += -0.5 * dot_self(pred);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<double> s = {0.1, 0.4, 0.3, 0.2, 0.6};
  DataBlock shared;
  shared.addInt(5).addReals(s);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  const double u = 0.2, r = 0.8, y0 = std::exp(u);
  std::vector<double> pred(5, 0.0);
  pred[0] = y0;
  for (size_t i = 1; i < 5; ++i) {
    double conv = 0;
    for (size_t j = 0; j < i; ++j) conv += pred[j] * s[5 - i + j];
    pred[i] = r * conv;
  }
  double dot = 0;
  for (double p : pred) dot += p * p;
  const double expected = normalLpdf(y0, 1, 1) + u + normalLpdf(r, 0, 1) - 0.5 * dot;  // + log-Jacobian u
  EXPECT_NEAR(priorValue(m, {u, r}), expected, 1e-12);
  expectPriorGradientMatchesFiniteDifferences(m, {u, r});
}

// An int view whose size changes in the loop, converted to reals for a density: the conversion's
// buffer gets a capacity too.
TEST(LoopSizes, IntRowOfALoopSizedArrayAsReals) {
  Compiled c = compileModel(R"(
data { int J; array[J] int n; }
global { real mu; }
model {
  for (j in 1:J) {
    array[2, n[j]] int c = rep_array(1, 2, n[j]);
    c[1] ~ normal(mu, 1);
  }
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(3).addInts({2, 5, 1});
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  const double mu = 0.3;
  std::vector<double> g;
  EXPECT_NEAR(priorValue(m, {mu}, &g), 8 * normalLpdf(1, mu, 1), 1e-12);
  EXPECT_NEAR(g[0], 8 * (1 - mu), 1e-12);
}

// A size that turns negative in some iteration stops the evaluation with an error that names the
// statement, as Stan refuses a negative size; it never reaches the buffer.
TEST(LoopSizes, ANegativeSizeInALoopIsAnError) {
  Compiled c = compileModel(R"(
data { int N; }
global { real mu; }
model {
  for (j in 1:N) {
    vector[j - 2] v = rep_vector(mu, j - 2);
    target += sum(v);
  }
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(3);
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {});
  double z = 0.5, g = 0;
  try {
    m.priorLogDensity(&z, nullptr, &g, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const ModelEvaluationError& e) {
    EXPECT_NE(std::string(e.what()).find("at 6:5: vector[j - 2] v"), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.priorLogDensity(&z, nullptr, nullptr, nullptr), ModelEvaluationError);
}

// The IR names a capacity, computed from the data before the function runs.
TEST(LoopSizes, TheIrShowsTheCapacity) {
  Compiled c = compileModel(R"(
data { int N; array[N] int K; }
global { real mu; }
model {
  for (j in 1:N) {
    vector[K[j]] v = rep_vector(mu, K[j]);
    target += -0.5 * dot_self(v);
  }
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::ostringstream dump;
  ir::print(dump, c.lowered->prior);
  EXPECT_NE(dump.str().find("int max_of"), std::string::npos) << dump.str();
  EXPECT_NE(dump.str().find(" <= %"), std::string::npos) << dump.str();
  DataBlock shared;
  shared.addInt(3).addInts({2, 0, 5});
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> g;
  EXPECT_NEAR(priorValue(m, {1.5}, &g), -0.5 * 1.5 * 1.5 * 7, 1e-12);
  EXPECT_NEAR(g[0], -1.5 * 7, 1e-12);
}

}  // namespace
}  // namespace pvi::test
