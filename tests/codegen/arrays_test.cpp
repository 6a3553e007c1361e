// Arrays of vectors and matrices and multi-dimensional arrays, as data, globals, locals and
// model variables: indexing into them and their use in densities, against the same model
// written in C++. Data layout: arrays row-major over their indices, each vector or matrix
// element contiguous (matrices column-major).
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"
#include "stdlib/kernels/rng/rng.h"

namespace pvi::test {
namespace {

const char* kArrays = R"(
@partition(site)
data { int K; int D; array[K] vector[D] mu0; array[K] matrix[D, D] Lc; array[2, 3] real A; }
data per site { int N; array[N] vector[D] y; array[N] int<lower=1, upper=K> z; array[N, 2] int<lower=1, upper=2> c; }
global { array[K] vector[D] mu; array[2] matrix[D, D] W; real<lower=0> s; }
local per site { array[2, 3] real u; }
model {
  for (k in 1:K) mu[k] ~ normal(mu0[k], 1);
  for (j in 1:2) to_vector(W[j]) ~ normal(0, 1);
  s ~ exponential(1);
  for (i in 1:2) u[i] ~ normal(A[i], s);
  for (n in 1:N) {
    y[n] ~ multi_normal_cholesky(mu[z[n]], Lc[z[n]]);
    target += normal_lpdf(y[n, 1] | W[c[n, 1], 1, 2] + u[c[n, 2], 3], 1);
  }
  array[K] vector[D] m;
  for (k in 1:K) m[k] = W[1] * mu[k] + s;
  target += -0.5 * dot_product(m[1], m[K]);
  target += sum(mu[:, 1]) + sum(A[:, 2]) * s + sum(u[2]) + m[2, 1] + m[2][D];
}
)";

// log N(y | mu, L L') for a lower-triangular L (column-major D x D).
double mvnCholesky(const double* y, const double* mu, const double* L, size_t D) {
  std::vector<double> r(D);
  double quad = 0, logDet = 0;
  for (size_t i = 0; i < D; ++i) {
    double x = y[i] - mu[i];
    for (size_t j = 0; j < i; ++j) x -= L[i + j * D] * r[j];
    r[i] = x / L[i + i * D];
    quad += r[i] * r[i];
    logDet += std::log(L[i + i * D]);
  }
  return -0.5 * static_cast<double>(D) * std::log(2 * M_PI) - logDet - 0.5 * quad;
}

TEST(Arrays, ArraysOfVectorsMatricesAndTwoDimensionalArrays) {
  Compiled c = compileModel(kArrays);
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(51);
  const size_t K = 3, D = 2, N = 4;
  std::vector<double> mu0 = randomVector(K * D, rng), A = randomVector(6, rng);
  std::vector<double> Lc(K * D * D, 0.0);
  for (size_t k = 0; k < K; ++k) {  // lower-triangular, positive diagonal
    double* L = &Lc[k * D * D];
    L[0] = 1.0 + 0.2 * static_cast<double>(k);
    L[1] = 0.3;
    L[3] = 0.8;
  }
  std::vector<double> y = randomVector(N * D, rng, 1.0);
  std::vector<int64_t> z = {2, 1, 3, 2}, cc = {1, 2, 2, 2, 1, 1, 2, 1};
  DataBlock shared, part;
  shared.addInt(K).addInt(D).addReals(mu0).addReals(Lc).addReals(A);
  part.addInt(N).addReals(y).addInts(z).addInts(cc);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {part});
  ASSERT_EQ(m.globalDim(), K * D + 2 * D * D + 1);
  ASSERT_EQ(m.localDim(0), 6u);

  std::vector<double> zz = randomVector(m.globalDim(), rng), w = randomVector(6, rng);
  const double* mu = zz.data();                 // mu[k][d] = mu[k * D + d]
  const double* W = zz.data() + K * D;          // W[j] column-major at j * D * D
  double s = std::exp(zz[K * D + 2 * D * D]);
  // Prior: mu, W, s (with its log-Jacobian) and the model variable m.
  double prior = 0;
  for (size_t i = 0; i < K * D; ++i) prior += normalLpdf(mu[i], mu0[i], 1);
  for (size_t i = 0; i < 2 * D * D; ++i) prior += normalLpdf(W[i], 0, 1);
  prior += -s + std::log(s);
  std::vector<double> mm(K * D);
  for (size_t k = 0; k < K; ++k)
    for (size_t r = 0; r < D; ++r) {
      double x = 0;
      for (size_t q = 0; q < D; ++q) x += W[r + q * D] * mu[k * D + q];
      mm[k * D + r] = x + s;
    }
  double dot = 0;
  for (size_t d = 0; d < D; ++d) dot += mm[d] * mm[(K - 1) * D + d];
  prior += -0.5 * dot;
  EXPECT_NEAR(m.priorLogDensity(zz.data(), nullptr, nullptr, nullptr), prior, 1e-12 * std::fabs(prior));

  // The last target += reads the local u: it belongs to the partition factor.
  double lik = 0;
  for (size_t k = 0; k < K; ++k) lik += mu[k * D];
  lik += (A[1] + A[4]) * s + w[3] + w[4] + w[5];
  lik += mm[1 * D + 0] + mm[1 * D + D - 1];
  for (size_t i = 0; i < 2; ++i)
    for (size_t j = 0; j < 3; ++j) lik += normalLpdf(w[i * 3 + j], A[i * 3 + j], s);
  for (size_t n = 0; n < N; ++n) {
    size_t k = static_cast<size_t>(z[n] - 1);
    lik += mvnCholesky(&y[n * D], &mu[k * D], &Lc[k * D * D], D);
    size_t j = static_cast<size_t>(cc[n * 2] - 1), i = static_cast<size_t>(cc[n * 2 + 1] - 1);
    lik += normalLpdf(y[n * D], W[j * D * D + 0 + 1 * D] + w[i * 3 + 2], 1);
  }
  double got = m.partitionLogDensity(0, zz.data(), w.data(), nullptr, nullptr, nullptr, nullptr);
  EXPECT_NEAR(got, lik, 1e-12 * std::fabs(lik));
  checkGradients(m, rng);
  expectAotBitIdentical(c, shared, {part}, rng, "arrays");

  // The constrained globals come out in the same layout as the data.
  int64_t dims[3];
  c.jit->code().constrain_globals_size(shared.pointers(), nullptr, dims);
  ASSERT_EQ(dims[0], static_cast<int64_t>(m.globalDim()));
  std::vector<double> out(m.globalDim()), ws(4096);
  int64_t status = 0;
  c.jit->code().constrain_globals(zz.data(), nullptr, nullptr, shared.pointers(), nullptr, out.data(), ws.data(),
                                  static_cast<int64_t>(ws.size() * sizeof(double)), &status);
  EXPECT_EQ(status, 0);
  for (size_t i = 0; i + 1 < out.size(); ++i) EXPECT_EQ(out[i], zz[i]);
  EXPECT_NEAR(out.back(), s, 1e-15);
}

TEST(Arrays, ElementOutOfRangeIsAnIndexError) {
  Compiled c = compileModel(R"(
data { int K; int j; array[K, 2] int g; }
global { array[K] vector[2] mu; }
model {
  for (k in 1:K) mu[k] ~ normal(0, 1);
  target += mu[g[j, 1], g[j, 2]];
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  for (auto [j, g1, ok] : {std::tuple{1, 2, true}, {0, 1, false}, {3, 1, false}, {1, 3, false}}) {
    DataBlock shared;
    shared.addInt(2).addInt(j).addInts({g1, 1, 1, 2});
    CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
    std::vector<double> zz(4, 0.25), gz(4);
    if (ok) {
      double expected = 4 * normalLpdf(0.25, 0, 1) + 0.25;
      EXPECT_NEAR(m.priorLogDensity(zz.data(), nullptr, gz.data(), nullptr), expected, 1e-12);
      EXPECT_NEAR(gz[2], -0.25 + 1, 1e-12);  // mu[2][1]
    } else {
      EXPECT_THROW(m.priorLogDensity(zz.data(), nullptr, gz.data(), nullptr), ModelEvaluationError) << j << " " << g1;
    }
  }
}

// Int arrays where reals are expected (as Stan converts them): in a real function's argument, as
// a real density's variate, and in generated quantities; the sum of an int array is an int.
TEST(Arrays, IntArraysWhereRealsAreExpected) {
  Compiled c = compileModel(R"(
data { int N; array[N] int g; array[2, N] int h; }
global { real mu; real<lower=0> s; }
model {
  target += mu * sum(to_vector(g));
  g ~ normal(mu, s);
  h[2] ~ normal(mu, s);
}
generated {
  real total = sum(to_vector(h[1]));
  vector[N] v = to_vector(g);
  int count = sum(g);
  array[N] int pick = N > 2 ? g : h[1];  // int arrays through ?: stay ints
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<int64_t> g{3, -1, 4}, h{1, 5, 9, 2, 6, 5};
  DataBlock shared;
  shared.addInt(3).addInts(g).addInts(h);
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {});
  const std::vector<double> z{0.4, std::log(1.5)};
  const double mu = 0.4, sd = 1.5;
  double expected = mu * 6 + std::log(sd);  // log-Jacobian of s = exp(z[1])
  for (int64_t x : g) expected += normalLpdf(static_cast<double>(x), mu, sd);
  for (size_t n = 0; n < 3; ++n) expected += normalLpdf(static_cast<double>(h[3 + n]), mu, sd);
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), expected, 1e-12 * std::fabs(expected));
  std::mt19937_64 rng(5);
  checkGradients(m, rng);
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  EXPECT_EQ(m.generateShared(z.data(), nullptr, draws), (std::vector<double>{15, 3, -1, 4, 6, 3, -1, 4}));
}

// Literals: [a, b] (a row_vector), [r1, r2] (a matrix of rows), {a, b} (arrays of scalars, of
// vectors and of arrays), in the model (values and gradients) and in generated quantities.
TEST(Arrays, RowVectorMatrixAndArrayLiterals) {
  Compiled c = compileModel(R"(
data { int N; vector[N] x; }
global { real a; vector[2] b; }
model {
  row_vector[3] r = [a, 2 * a, 1];
  matrix[2, N] M = [x', (a * x)'];
  array[2] vector[2] vs = {b, [a, b[1]]'};
  array[2, 2] real A = {{a, 1}, {2, b[2]}};
  target += r * [1, 2, 3]' + sum(M * x) + dot_product(vs[1], vs[2]) + A[1, 1] * A[2, 2] + A[1, 2] * A[2, 1];
}
generated { matrix[2, 2] G = [[a, 1], [b[1], b[2]]]; array[3] int k = {1, N, 3}; }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<double> x{0.5, -1.0, 2.0};
  DataBlock shared;
  shared.addInt(3).addReals(x);
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {});
  const double a = 0.7, b1 = -0.4, b2 = 1.3;
  const std::vector<double> z{a, b1, b2};
  double xx = 0;
  for (double v : x) xx += v * v;
  // r . (1, 2, 3) = a + 4a + 3; sum(M x) = (x'x) + a (x'x); vs1 . vs2 = b1 a + b2 b1; A: a b2 + 2.
  const double expected = 5 * a + 3 + xx + a * xx + (b1 * a + b2 * b1) + a * b2 + 2;
  EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), expected, 1e-12);
  std::mt19937_64 rng(7);
  checkGradients(m, rng);
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  // G column-major: a, b1, 1, b2; then k.
  EXPECT_EQ(m.generateShared(z.data(), nullptr, draws), (std::vector<double>{a, b1, 1, b2, 1, 3, 3}));
  expectAotBitIdentical(c, shared, {}, rng, "literals");
}

}  // namespace
}  // namespace pvi::test

namespace pvi::test {
namespace {

// to_matrix of a 2-D array (its first index the row), of a vector (one column) and of a
// row_vector (one row), and col / row of the result: the prior weights each element of the results by data W, so its value
// names every element's position, and the gradient flows back to the array's elements.
TEST(Arrays, ToMatrixColAndRow) {
  Compiled c = compileModel(R"(
data { int N; int M; matrix[N, M] W; vector[N] u; row_vector[M] r; }
parameters { array[N, M] real a; vector[N] v; row_vector[M] rv; }
model {
  target += sum(W .* to_matrix(a));
  target += sum(to_matrix(v) .* W[:, 2:2]) + sum(to_matrix(rv) .* W[1:1, :]);
  target += sum(to_matrix(W) .* W);
  target += dot_product(col(to_matrix(a), 2), u) + dot_product(row(to_matrix(a), 3), r);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const int64_t N = 3, M = 2;
  std::vector<double> W = {0.5, -1.0, 2.0, 0.25, 3.0, -0.75};  // column-major N x M
  DataBlock shared;
  const std::vector<double> u = {1.5, -0.5, 2.5}, r = {-2.0, 0.75};
  shared.addInt(N).addInt(M).addReals(W).addReals(u).addReals(r);
  CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
  ASSERT_EQ(m.globalDim(), static_cast<size_t>(N * M + N + M));
  std::mt19937_64 rng(7);
  std::vector<double> z = randomVector(m.globalDim(), rng), g(z.size());
  const double v = m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
  double expected = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < M; ++k) {
      // a[n, k] is stored at n * M + k; col(., 2) meets u, row(., 3) meets r
      const double weight = W[k * N + n] + (k == 1 ? u[n] : 0) + (n == 2 ? r[k] : 0);
      expected += weight * z[n * M + k];
      EXPECT_DOUBLE_EQ(g[n * M + k], weight);
    }
  for (int64_t n = 0; n < N; ++n) expected += z[N * M + n] * W[N + n];        // v against W's column 2
  for (int64_t k = 0; k < M; ++k) expected += z[N * M + N + k] * W[k * N];    // rv against W's row 1
  for (double x : W) expected += x * x;
  EXPECT_NEAR(v, expected, 1e-12 * (1 + std::fabs(expected)));
}

}  // namespace
}  // namespace pvi::test
