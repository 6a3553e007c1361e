// Assignment after declaration (plain, compound, element and slice targets; in loops, nested
// loops and branches; real and int variables) and the conditional operator: values against the
// same computation written in C++, gradients against finite differences, JIT against AOT.
#include <gtest/gtest.h>

#include <cmath>

#include "stdlib/kernels/rng/rng.h"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

double priorValue(const CompiledModel& m, const std::vector<double>& z) {
  return m.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
}

void expectRelNear(double got, double expected) {
  EXPECT_NEAR(got, expected, 1e-12 * std::max(1.0, std::fabs(expected)));
}

// Overwriting elements in a loop, an accumulator, a reassignment in a branch, ?: in an argument.
TEST(Assignment, LoopAccumulatorBranchAndConditional) {
  Compiled c = compileModel(R"(
data { int N; vector[N] y; real x; }
global { real mu; vector[N] b; }
model {
  vector[N] m = b;
  real acc = 0;
  for (n in 1:N) {
    m[n] = mu * m[n];
    acc += m[n] * m[n];
  }
  if (x > 0) acc = acc * 2;
  mu ~ normal(x > 1 ? 1.0 : 0.0, 1);
  b ~ normal(0, 1);
  target += -acc;
  y ~ normal(m, 1);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(31);
  for (double x : {-0.5, 0.5, 1.5}) {
    const size_t N = 4;
    std::vector<double> y = randomVector(N, rng, 1.0);
    DataBlock shared;
    shared.addInt(N).addReals(y).addReal(x);
    CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
    std::vector<double> z = randomVector(N + 1, rng);  // mu, b
    double mu = z[0], acc = 0, lp = normalLpdf(mu, x > 1 ? 1.0 : 0.0, 1);
    std::vector<double> m(N);
    for (size_t n = 0; n < N; ++n) {
      m[n] = mu * z[1 + n];
      acc += m[n] * m[n];
      lp += normalLpdf(z[1 + n], 0, 1) + normalLpdf(y[n], m[n], 1);
    }
    if (x > 0) acc *= 2;
    expectRelNear(priorValue(model, z), lp - acc);
    checkGradients(model, rng);
    expectAotBitIdentical(c, shared, {}, rng, "assign-loop");
  }
}

// A recurrence: a scalar carried from one iteration to the next and read before it is written
// (the gradient needs every iteration's value), a product of it, and elements that read the
// previous element and are overwritten in the same iteration.
TEST(Assignment, RecurrenceCarriedAcrossIterations) {
  Compiled c = compileModel(R"(
@partition(series)
data per series { int T; vector[T] y; }
global { real<lower=-1, upper=1> rho; real<lower=0> s; }
local per series { real x0; }
model {
  vector[T] h;
  real state = x0;
  real prod = 1;
  for (t in 1:T) {
    state = rho * state + y[t];
    prod = prod * (1 + 0.1 * tanh(state));
    h[t] = state;
    if (t > 1) h[t] = h[t] + 0.5 * h[t - 1];
  }
  rho ~ normal(0, 1);
  s ~ exponential(1);
  x0 ~ normal(0, 1);
  y ~ normal(h, s);
  target += log(prod);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(32);
  const size_t T = 6;
  std::vector<double> y = randomVector(T, rng, 1.0);
  DataBlock part;
  part.addInt(T).addReals(y);
  CompiledModel model(c.jit->code(), c.lowered->schema, DataBlock{}, {part});
  std::vector<double> z = {0.3, -0.2}, w = {0.4};
  double rho = -1 + 2 / (1 + std::exp(-z[0])), s = std::exp(z[1]), x0 = w[0];
  double state = x0, prod = 1, lp = normalLpdf(x0, 0, 1);
  std::vector<double> h(T);
  for (size_t t = 0; t < T; ++t) {
    state = rho * state + y[t];
    prod *= 1 + 0.1 * std::tanh(state);
    h[t] = state;
    if (t > 0) h[t] += 0.5 * h[t - 1];
    lp += normalLpdf(y[t], h[t], s);
  }
  lp += std::log(prod);
  expectRelNear(model.partitionLogDensity(0, z.data(), w.data(), nullptr, nullptr, nullptr, nullptr), lp);
  checkGradients(model, rng);
  expectAotBitIdentical(c, DataBlock{}, {part}, rng, "assign-recurrence");
}

// A whole vector carried through a loop: v = tanh(W v), T times (each iteration's v is kept for
// the gradient).
TEST(Assignment, VectorCarriedThroughALoop) {
  Compiled c = compileModel(R"(
data { int T; int K; vector[K] v0; }
global { matrix[K, K] W; }
model {
  vector[K] v = v0;
  for (t in 1:T) v = tanh(W * v);
  to_vector(W) ~ normal(0, 1);
  target += sum(v);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(37);
  const size_t T = 5, K = 3;
  std::vector<double> v0 = randomVector(K, rng, 1.0);
  DataBlock shared;
  shared.addInt(T).addInt(K).addReals(v0);
  CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = randomVector(K * K, rng, 0.8), v = v0;
  double lp = 0;
  for (double x : z) lp += normalLpdf(x, 0, 1);
  for (size_t t = 0; t < T; ++t) {
    std::vector<double> next(K, 0.0);
    for (size_t i = 0; i < K; ++i) {
      for (size_t j = 0; j < K; ++j) next[i] += z[i + j * K] * v[j];
      next[i] = std::tanh(next[i]);
    }
    v = next;
  }
  for (double x : v) lp += x;
  expectRelNear(priorValue(model, z), lp);
  checkGradients(model, rng);
  expectAotBitIdentical(c, shared, {}, rng, "assign-vector-loop");
}

// Nested loops: a matrix overwritten element by element while being read, a per-row
// accumulator declared in the outer body, and an int counter carried through both loops.
TEST(Assignment, NestedLoopsWithIntCounter) {
  Compiled c = compileModel(R"(
data { int N; int K; matrix[N, K] X; }
global { vector[K] w; }
model {
  real total = 0;
  int count = 0;
  matrix[N, K] Z = X;
  for (n in 1:N) {
    real row_sum = 0;
    for (k in 1:K) {
      row_sum += Z[n, k] * w[k];
      Z[n, k] = tanh(row_sum);
      count += 1;
    }
    total += square(row_sum) * count;
  }
  w ~ normal(0, 1);
  target += -0.01 * total + sum(Z) + count;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(33);
  const size_t N = 3, K = 4;
  std::vector<double> X = randomVector(N * K, rng, 1.0);
  DataBlock shared;
  shared.addInt(N).addInt(K).addReals(X);
  CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = randomVector(K, rng);
  std::vector<double> Z = X;
  double total = 0, lp = 0;
  int count = 0;
  for (size_t n = 0; n < N; ++n) {
    double rowSum = 0;
    for (size_t k = 0; k < K; ++k) {
      rowSum += Z[n + k * N] * z[k];
      Z[n + k * N] = std::tanh(rowSum);
      ++count;
    }
    total += rowSum * rowSum * count;
  }
  for (double v : z) lp += normalLpdf(v, 0, 1);
  double sumZ = 0;
  for (double v : Z) sumZ += v;
  expectRelNear(priorValue(model, z), lp - 0.01 * total + sumZ + count);
  checkGradients(model, rng);
  expectAotBitIdentical(c, shared, {}, rng, "assign-nested");
}

// Compound assignments on vectors, element and slice targets at the top level, whole-vector
// reassignment in both arms of an if, and an element assignment inside a loop body to a
// variable declared in that body.
TEST(Assignment, CompoundSliceAndBranchAssignments) {
  Compiled c = compileModel(R"(
data { int N; vector[N] y; int flag; }
global { vector[N] b; real a; }
model {
  vector[N] r = y - b;
  r *= 2;
  r /= 2.0;
  r += b;
  r -= a;
  r[1] = a * a;
  r[2:3] = rep_vector(a, 2) .* b[1:2];
  if (flag) r = r .* r; else r = -r;
  for (n in 1:N) {
    vector[2] t = rep_vector(b[n], 2);
    t[2] = a;
    target += t[1] * t[2];
  }
  b ~ normal(0, 1);
  a ~ normal(0, 1);
  target += -0.5 * dot_product(r, r);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(34);
  for (int flag : {0, 1}) {
    const size_t N = 4;
    std::vector<double> y = randomVector(N, rng, 1.0);
    DataBlock shared;
    shared.addInt(N).addReals(y).addInt(flag);
    CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
    std::vector<double> z = randomVector(N + 1, rng);
    const double* b = z.data();
    double a = z[N], lp = normalLpdf(a, 0, 1);
    std::vector<double> r(N);
    for (size_t n = 0; n < N; ++n) r[n] = (y[n] - b[n]) * 2 / 2.0 + b[n] - a;
    r[0] = a * a;
    r[1] = a * b[0];
    r[2] = a * b[1];
    for (size_t n = 0; n < N; ++n) {
      r[n] = flag ? r[n] * r[n] : -r[n];
      lp += b[n] * a + normalLpdf(b[n], 0, 1);
    }
    double rr = 0;
    for (double v : r) rr += v * v;
    expectRelNear(priorValue(model, z), lp - 0.5 * rr);
    checkGradients(model, rng);
    expectAotBitIdentical(c, shared, {}, rng, "assign-compound");
  }
}

// The conditional operator: only the branch taken is evaluated (y[n - 1] at n = 1 would be out
// of range), int and real scalars, inside a loop, and on vectors.
TEST(Conditional, ScalarsIntsVectorsAndTheBranchNotTaken) {
  Compiled c = compileModel(R"(
@partition(g)
data per g { int N; vector[N] y; }
global { real mu; }
model {
  mu ~ normal(0, 1);
  for (n in 1:N) {
    real prev = n > 1 ? y[n - 1] * mu : 0;
    int k = n > 2 ? 2 : 1;
    y[n] ~ normal(mu * k + prev, n == 1 ? 2 : 1);
  }
  vector[N] v = N > 3 ? y * mu : -y;
  target += -0.1 * dot_product(v, v);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(35);
  for (size_t N : {2, 5}) {
    std::vector<double> y = randomVector(N, rng, 1.0);
    DataBlock part;
    part.addInt(static_cast<int64_t>(N)).addReals(y);
    CompiledModel model(c.jit->code(), c.lowered->schema, DataBlock{}, {part});
    std::vector<double> z = {0.7};
    double mu = z[0], lp = 0, vv = 0;
    for (size_t n = 1; n <= N; ++n) {
      double prev = n > 1 ? y[n - 2] * mu : 0;
      int k = n > 2 ? 2 : 1;
      lp += normalLpdf(y[n - 1], mu * k + prev, n == 1 ? 2 : 1);
      double v = N > 3 ? y[n - 1] * mu : -y[n - 1];
      vv += v * v;
    }
    expectRelNear(model.partitionLogDensity(0, z.data(), nullptr, nullptr, nullptr, nullptr, nullptr), lp - 0.1 * vv);
    checkGradients(model, rng);
    expectAotBitIdentical(c, DataBlock{}, {part}, rng, "conditional");
  }
}

// Int arrays assigned element by element, used as a multi-index and output as generated
// quantities.
TEST(Assignment, IntArrays) {
  Compiled c = compileModel(R"(
data { int N; vector[N] v; }
global { vector[N] beta; }
model {
  array[N] int idx;
  for (n in 1:N) idx[n] = N + 1 - n;
  idx[1] = idx[2];
  beta ~ normal(0, 1);
  target += dot_product(beta[idx], v);
}
generated {
  array[N] int sq;
  for (n in 1:N) sq[n] = n * n;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(36);
  const size_t N = 4;
  std::vector<double> v = randomVector(N, rng, 1.0);
  DataBlock shared;
  shared.addInt(N).addReals(v);
  CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = randomVector(N, rng);
  std::vector<size_t> idx = {N - 1, N - 1, N - 2, N - 3};  // 1-based
  double lp = 0;
  for (size_t n = 0; n < N; ++n) lp += normalLpdf(z[n], 0, 1) + z[idx[n] - 1] * v[n];
  expectRelNear(priorValue(model, z), lp);
  checkGradients(model, rng);
  expectAotBitIdentical(c, shared, {}, rng, "assign-int-arrays");
  int64_t dims[3];
  c.jit->code().generate_shared_size(shared.pointers(), nullptr, dims);
  ASSERT_EQ(dims[0], static_cast<int64_t>(N));
  std::vector<double> out(N), ws(1024);
  int64_t status = 0;
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  c.jit->code().generate_shared(z.data(), nullptr, nullptr, shared.pointers(), nullptr, out.data(), ws.data(),
                                static_cast<int64_t>(ws.size() * sizeof(double)), &status, &draws);
  EXPECT_EQ(status, 0);
  for (size_t n = 0; n < N; ++n) EXPECT_EQ(out[n], static_cast<double>((n + 1) * (n + 1)));
}

// Targets that are not contiguous: a multi-index with repeated indices (the last write wins,
// and only it gets the gradient) and a row of a matrix.
TEST(Assignment, MultiIndexAndRowTargets) {
  Compiled c = compileModel(R"(
data { int N; array[N] int g; }
global { vector[N] w; vector[N] b; }
model {
  vector[N] v = b;
  v[g] = w;
  matrix[2, N] M = rep_matrix(0, 2, N);
  M[2] = w' .* b';
  w ~ normal(0, 1);
  b ~ normal(0, 1);
  target += 0.1 * dot_product(v, v) + sum(M);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(38);
  const size_t N = 4;
  std::vector<int64_t> g = {2, 4, 2, 1};  // 2 twice: v[2] = w[3]; v[3] keeps b[3]
  DataBlock shared;
  shared.addInt(N).addInts(g);
  CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
  std::vector<double> z = randomVector(2 * N, rng);
  const double *w = z.data(), *b = z.data() + N;
  std::vector<double> v(b, b + N);
  for (size_t n = 0; n < N; ++n) v[static_cast<size_t>(g[n] - 1)] = w[n];
  double lp = 0, vv = 0;
  for (size_t n = 0; n < N; ++n) lp += normalLpdf(w[n], 0, 1) + normalLpdf(b[n], 0, 1) + w[n] * b[n];
  for (double x : v) vv += x * x;
  expectRelNear(priorValue(model, z), lp + 0.1 * vv);
  checkGradients(model, rng);
  expectAotBitIdentical(c, shared, {}, rng, "assign-multi-index");
  // An index out of range in the multi-index is the index status.
  DataBlock bad;
  bad.addInt(N).addInts({2, 5, 2, 1});
  CompiledModel badModel(c.jit->code(), c.lowered->schema, bad, {});
  EXPECT_THROW(priorValue(badModel, z), ModelEvaluationError);
}

// An index out of range in an assignment target is the index status, not a crash.
TEST(Assignment, OutOfRangeTargetIsAnIndexError) {
  Compiled c = compileModel(R"(
data { int N; int j; }
global { real mu; }
model {
  vector[N] v = rep_vector(mu, N);
  for (n in 1:N) v[n + j] = mu;
  target += sum(v);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  for (int64_t j : {0, 1}) {
    DataBlock shared;
    shared.addInt(3).addInt(j);
    CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
    double z = 0.5, g = 0;
    if (j == 0) {
      EXPECT_NEAR(model.priorLogDensity(&z, nullptr, &g, nullptr), 1.5, 1e-15);
      EXPECT_NEAR(g, 3.0, 1e-15);
    } else {
      EXPECT_THROW(model.priorLogDensity(&z, nullptr, nullptr, nullptr), ModelEvaluationError);
      EXPECT_THROW(model.priorLogDensity(&z, nullptr, &g, nullptr), ModelEvaluationError);
    }
  }
}

// A ragged loop (bounds reading an enclosing loop's variable) may read what it assigned when
// nothing in the loop reads a latent: the gradient never replays it (kronecker_gp's symmetric
// distance matrix). Its values are those of the loops as written.
TEST(Assignment, RaggedLoopOverDataReadsWhatItAssigned) {
  Compiled c = compileModel(R"(
data { int N; }
global { real mu; }
model {
  matrix[N, N] d;
  for (i in 1:N)
    for (j in i:N) {
      d[i, j] = i + 10 * j;
      d[j, i] = d[i, j];
    }
  mu ~ normal(sum(d), 1);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(3);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  double sum = 0;  // d[i, j] = min + 10 max over the 3 x 3 grid
  for (int i = 1; i <= 3; ++i)
    for (int j = 1; j <= 3; ++j) sum += std::min(i, j) + 10 * std::max(i, j);
  const double mu = 150.0;
  double g = 0;
  EXPECT_NEAR(m.priorLogDensity(&mu, nullptr, &g, nullptr), normalLpdf(mu, sum, 1), 1e-12);
  EXPECT_NEAR(g, -(mu - sum), 1e-12);
}

}  // namespace
}  // namespace pvi::test
