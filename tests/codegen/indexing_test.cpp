// Slices, rows, columns and multi-indices of vectors and matrices, against the same reads
// written in C++; gradients against finite differences; out-of-range indices give the index
// status.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kIndexing = R"(
data { int N; int K; vector[N] v; array[N] int<lower=1, upper=K> g; int a; int b; }
global { vector[K] beta; matrix[N, K] B; }
model {
  beta ~ normal(0, 1);
  to_vector(B) ~ normal(0, 1);
  target += sum(beta[a:b]);
  target += sum(beta[2:]) + 2 * sum(beta[:2]) + 3 * sum(beta[:]);
  target += dot_product(B[1], beta);
  target += sum(B[2, :]) * beta[1];
  target += sum(B[:, 2]) * beta[2];
  target += sum(B[1:2]);
  target += sum(B[g, 1] .* v);
  target += sum(B[g] * beta);
  target += sum(B[:, g] .* B[:, g]);
  target += sum(B[2:3, 1:2]) * beta[3];
  target += dot_product(beta[g], v);
  target += sum(v[2:N] .* v[1:(N - 1)]) * beta[1];
  target += sum(B[2:1, 1]);
}
)";

TEST(Indexing, SlicesRowsColumnsAndMultiIndices) {
  Compiled c = compileModel(kIndexing);
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(41);
  const size_t N = 4, K = 3;
  std::vector<double> v = randomVector(N, rng, 1.0);
  std::vector<int64_t> g = {3, 1, 3, 2};
  for (auto [a, b] : {std::pair<int64_t, int64_t>{1, 3}, {2, 3}, {3, 2}}) {
    DataBlock shared;
    shared.addInt(N).addInt(K).addReals(v).addInts(g).addInt(a).addInt(b);
    CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
    std::vector<double> z = randomVector(K + N * K, rng);
    const double* beta = z.data();
    auto B = [&](size_t i, size_t j) { return z[K + i + j * N]; };  // 0-based, column-major
    double lp = 0;
    for (double x : z) lp += normalLpdf(x, 0, 1);
    for (int64_t k = a; k <= b; ++k) lp += beta[k - 1];
    for (size_t k = 1; k < K; ++k) lp += beta[k];
    lp += 2 * (beta[0] + beta[1]);
    for (size_t k = 0; k < K; ++k) lp += 3 * beta[k];
    for (size_t k = 0; k < K; ++k) lp += B(0, k) * beta[k];
    for (size_t k = 0; k < K; ++k) lp += B(1, k) * beta[0];
    for (size_t n = 0; n < N; ++n) lp += B(n, 1) * beta[1];
    for (size_t i = 0; i < 2; ++i)
      for (size_t k = 0; k < K; ++k) lp += B(i, k);
    for (size_t n = 0; n < N; ++n) lp += B(g[n] - 1, 0) * v[n];
    for (size_t n = 0; n < N; ++n)
      for (size_t k = 0; k < K; ++k) lp += B(g[n] - 1, k) * beta[k];
    for (size_t i = 0; i < N; ++i)
      for (size_t n = 0; n < N; ++n) lp += B(i, g[n] - 1) * B(i, g[n] - 1);
    for (size_t i = 1; i < 3; ++i)
      for (size_t k = 0; k < 2; ++k) lp += B(i, k) * beta[2];
    for (size_t n = 0; n < N; ++n) lp += beta[g[n] - 1] * v[n];
    double vv = 0;
    for (size_t n = 1; n < N; ++n) vv += v[n] * v[n - 1];
    lp += vv * beta[0];
    double got = m.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    EXPECT_NEAR(got, lp, 1e-12 * std::max(1.0, std::fabs(lp))) << a << ":" << b;
    checkGradients(m, rng);
    expectAotBitIdentical(c, shared, {}, rng, "indexing");
  }
}

TEST(Indexing, OutOfRangeSlicesAndMultiIndicesAreIndexErrors) {
  Compiled c = compileModel(R"(
data { int N; array[N] int g; int a; int b; }
global { matrix[N, N] B; }
model {
  to_vector(B) ~ normal(0, 1);
  target += sum(B[a:b, g[1]]);
  target += sum(B[g, a:b]);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  struct Case {
    std::vector<int64_t> g;
    int64_t a, b;
    bool ok;
  };
  for (const Case& k : {Case{{1, 2, 3}, 1, 3, true}, Case{{1, 2, 3}, 3, 2, true}, Case{{1, 2, 3}, 0, 2, false},
                        Case{{1, 2, 3}, 2, 4, false}, Case{{1, 4, 3}, 1, 3, false}, Case{{0, 2, 3}, 1, 1, false}}) {
    DataBlock shared;
    shared.addInt(3).addInts(k.g).addInt(k.a).addInt(k.b);
    CompiledModel m(c.jit->code(), c.lowered->schema, shared, {});
    std::vector<double> z(9, 0.1), gz(9);
    if (k.ok) {
      EXPECT_TRUE(std::isfinite(m.priorLogDensity(z.data(), nullptr, gz.data(), nullptr)));
    } else {
      EXPECT_THROW(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), ModelEvaluationError) << k.a << ":" << k.b;
      EXPECT_THROW(m.priorLogDensity(z.data(), nullptr, gz.data(), nullptr), ModelEvaluationError);
    }
  }
}

}  // namespace
}  // namespace pvi::test
