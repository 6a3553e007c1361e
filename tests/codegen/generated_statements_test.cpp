// Statements in the generated block: loops, branches (which may depend on latents there),
// assignments to elements and whole variables, ints, arrays of vectors; each generated
// quantity is the final value of a top-level declaration, against C++.
#include <gtest/gtest.h>

#include <cmath>

#include "stdlib/kernels/rng/rng.h"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

std::vector<double> runOutput(pvi_generate_fn fn, pvi_dims_fn size, const DataBlock& shared, const DataBlock* part,
                              const double* z, const double* w, int64_t* status) {
  int64_t dims[3] = {0, 0, 0};
  size(shared.pointers(), part ? part->pointers() : nullptr, dims);
  std::vector<double> out(static_cast<size_t>(std::max<int64_t>(dims[0], 3)), NAN), ws(4096);
  *status = 0;
  pvi_rng rng;
  pvi_rng_seed(&rng, 1, 0);
  fn(z, w, nullptr, shared.pointers(), part ? part->pointers() : nullptr, out.data(), ws.data(),
     static_cast<int64_t>(ws.size() * sizeof(double)), status, &rng);
  out.resize(static_cast<size_t>(dims[0]));
  return out;
}

const char* kGenerated = R"(
@partition(site)
data { int K; int D; int Nt; matrix[Nt, D] Xt; }
data per site { int N; vector[N] y; }
global { vector[D] beta; array[K] vector[D] mu; }
local per site { real u; }
model {
  beta ~ normal(0, 1);
  for (k in 1:K) mu[k] ~ normal(0, 1);
  u ~ normal(0, 1);
  y ~ normal(u, 1);
}
generated {
  vector[Nt] p;
  int above = 0;
  real best = -1e300;
  for (n in 1:Nt) {
    p[n] = inv_logit(Xt[n] * beta);
    if (p[n] > 0.5) above += 1;
    best = fmax(best, p[n]);
  }
  array[K] vector[D] shifted = mu;
  for (k in 1:K) shifted[k][1] = shifted[k][1] + k;
  array[K] real norms;
  for (k in 1:K) {
    real acc = 0;
    for (d in 1:D) acc += square(mu[k, d]);
    norms[k] = acc > 1 ? sqrt(acc) : acc;
  }
  real site_mean = mean(y) + u;
  vector[N] resid = y;
  for (n in 1:N) resid[n] -= u;
}
)";

TEST(GeneratedStatements, LoopsBranchesAndAssignments) {
  Compiled c = compileModel(kGenerated);
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(61);
  const size_t K = 3, D = 2, Nt = 5, N = 4;
  std::vector<double> Xt = randomVector(Nt * D, rng, 1.5), y = randomVector(N, rng, 1.0);
  DataBlock shared, part;
  shared.addInt(K).addInt(D).addInt(Nt).addReals(Xt);
  part.addInt(N).addReals(y);
  std::vector<double> z = randomVector(D + K * D, rng, 1.0), w = {0.3};
  int64_t status = 0;
  std::vector<double> g = runOutput(c.jit->code().generate_shared, c.jit->code().generate_shared_size, shared, nullptr,
                                    z.data(), nullptr, &status);
  EXPECT_EQ(status, 0);
  std::vector<double> expected;
  int above = 0;
  double best = -1e300;
  for (size_t n = 0; n < Nt; ++n) {
    double eta = 0;
    for (size_t d = 0; d < D; ++d) eta += Xt[n + d * Nt] * z[d];
    double p = 1 / (1 + std::exp(-eta));
    expected.push_back(p);
    if (p > 0.5) ++above;
    best = std::max(best, p);
  }
  expected.push_back(above);
  expected.push_back(best);
  const double* mu = z.data() + D;
  for (size_t k = 0; k < K; ++k)
    for (size_t d = 0; d < D; ++d) expected.push_back(mu[k * D + d] + (d == 0 ? static_cast<double>(k + 1) : 0.0));
  for (size_t k = 0; k < K; ++k) {
    double acc = 0;
    for (size_t d = 0; d < D; ++d) acc += mu[k * D + d] * mu[k * D + d];
    expected.push_back(acc > 1 ? std::sqrt(acc) : acc);
  }
  ASSERT_EQ(g.size(), expected.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], expected[i], 1e-14) << i;

  std::vector<double> gp = runOutput(c.jit->code().generate_partition, c.jit->code().generate_partition_size, shared,
                                     &part, z.data(), w.data(), &status);
  EXPECT_EQ(status, 0);
  ASSERT_EQ(gp.size(), 1 + N);
  double mean = 0;
  for (double v : y) mean += v / N;
  EXPECT_NEAR(gp[0], mean + w[0], 1e-14);
  for (size_t n = 0; n < N; ++n) EXPECT_NEAR(gp[1 + n], y[n] - w[0], 1e-15);
  expectAotBitIdentical(c, shared, {part}, rng, "generated");
}

TEST(GeneratedStatements, IndexOutOfRangeIsAStatusNamingTheStatement) {
  Compiled c = compileModel(R"(
data { int N; int j; }
global { real mu; }
model { mu ~ normal(0, 1); }
generated {
  vector[N] v = rep_vector(0, N);
  for (n in 1:N) v[n + j] = mu;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(3).addInt(1);
  double z = 0.5;
  int64_t status = 0;
  runOutput(c.jit->code().generate_shared, c.jit->code().generate_shared_size, shared, nullptr, &z, nullptr, &status);
  // The status names the statement: its site among the model's statements.
  ASSERT_LE(status, PVI_STATUS_INDEX_SITE_BASE);
  const auto site = static_cast<size_t>(PVI_STATUS_INDEX_SITE_BASE - status);
  ASSERT_LT(site, c.lowered->statements.size());
  EXPECT_EQ(c.lowered->statements[site], "7:18: v[n + j] = mu;");
}

}  // namespace
}  // namespace pvi::test
