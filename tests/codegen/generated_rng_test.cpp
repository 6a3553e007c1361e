// _rng functions in generated quantities, and the bounds of generated quantities:
//   - the generated code draws exactly what the kernels draw from the same seeded state, in
//     statement order (so a seed reproduces every quantity), and JIT and AOT code agree bit for bit;
//   - a draw in a declaration happens once, even when the variable is read inside and after a loop;
//   - bounds are checked on every draw, with messages that name the element and the bound;
//   - arguments outside a distribution's domain name the call (file position) and the element.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "runtime/model/CompiledModel.hpp"
#include "stdlib/kernels/rng/rng.h"
#include "tests/codegen/model_harness.hpp"

namespace pvi::test {
namespace {

pvi_rng seeded(uint64_t seed, uint64_t stream) {
  pvi_rng r;
  pvi_rng_seed(&r, seed, stream);
  return r;
}

TEST(GeneratedRng, DrawsAreTheKernelsDrawsInStatementOrder) {
  Compiled c = compileModel(R"(
@partition(site)
data { int N; vector[N] x; }
data per site { int M; array[M] int trials; }
global { real mu; real<lower=0> sigma; }
local per site { real u; }
model { mu ~ normal(0, 1); sigma ~ exponential(1); u ~ normal(mu, sigma); }
generated {
  array[N] real y_rep = normal_rng(mu + x, sigma);
  int k = poisson_log_rng(mu);
  real e = std_normal_rng();
  array[M] int s_rep;
  for (m in 1:M) s_rep[m] = binomial_rng(trials[m], inv_logit(u));
  vector[3] d = dirichlet_rng(rep_vector(2.0, 3));
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const std::vector<double> x{0.5, -1.0, 2.0};
  const std::vector<double> trials{3, 10};
  DataBlock shared, part;
  shared.addInt(3).addReals(x);
  part.addInt(2).addInts({3, 10});
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {part});
  const std::vector<double> z{0.3, std::log(0.7)}, w{-0.4};
  const double mu = 0.3, sigma = 0.7;

  pvi_rng rng = seeded(17, 2);
  std::vector<double> g = m.generateShared(z.data(), nullptr, rng);
  pvi_rng ref = seeded(17, 2);
  std::vector<double> expected(3), mux(3);
  for (size_t i = 0; i < 3; ++i) mux[i] = mu + x[i];
  ASSERT_EQ(pvi_normal_rng(&ref, 3, mux.data(), 1, &sigma, 0, expected.data()), 0);
  int64_t k = 0;
  ASSERT_EQ(pvi_poisson_log_rng(&ref, 1, &mu, 0, &k), 0);
  expected.push_back(static_cast<double>(k));
  double e = 0;
  ASSERT_EQ(pvi_std_normal_rng(&ref, 1, &e), 0);
  expected.push_back(e);
  std::vector<double> d(3), alpha(3, 2.0);
  ASSERT_EQ(pvi_dirichlet_rng(&ref, 3, alpha.data(), d.data()), 0);
  expected.insert(expected.end(), d.begin(), d.end());
  EXPECT_EQ(g, expected);  // bit for bit: the same kernels, the same state, the same order
  EXPECT_EQ(rng.s[0], ref.s[0]);  // and nothing else drew from the state

  pvi_rng prng = seeded(17, 3);
  std::vector<double> p = m.generatePartition(0, z.data(), w.data(), nullptr, prng);
  pvi_rng pref = seeded(17, 3);
  const double theta = 1.0 / (1.0 + std::exp(0.4));
  ASSERT_EQ(p.size(), 2u);
  for (size_t j = 0; j < 2; ++j) {
    int64_t n = static_cast<int64_t>(trials[j]), s = 0;
    ASSERT_EQ(pvi_binomial_rng(&pref, 1, &n, 0, &theta, 0, &s), 0);
    EXPECT_EQ(p[j], static_cast<double>(s)) << j;
  }
  std::mt19937_64 gen(3);
  expectAotBitIdentical(c, shared, {part}, gen, "generated-rng");
}

// A declaration with a draw is evaluated where it stands: read inside a loop and after it, it is
// one value (lowered at its first use, it would be drawn again after the loop).
TEST(GeneratedRng, ADrawnVariableIsDrawnOnce) {
  Compiled c = compileModel(R"(
data { int N; }
global { real mu; }
model { mu ~ normal(0, 1); }
generated {
  real a = normal_rng(mu, 1);
  real inside = 0;
  for (n in 1:N) inside += a;
  real after = a;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(4);
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {});
  const double z = 0.2;
  pvi_rng rng = seeded(5, 0);
  std::vector<double> g = m.generateShared(&z, nullptr, rng);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_DOUBLE_EQ(g[1], 4 * g[0]);
  EXPECT_EQ(g[2], g[0]);
}

TEST(GeneratedRng, BoundsAreCheckedOnEveryDraw) {
  Compiled c = compileModel(R"(
data { int N; real lo; }
global { real mu; }
model { mu ~ normal(0, 1); }
generated {
  real<lower=lo> above = mu;
  array[N] int<lower=0, upper=N> counts;
  for (n in 1:N) counts[n] = n - 2 * (n == 2) * N;
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(3).addReal(-1.0);
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {});
  pvi_rng rng = seeded(1, 0);
  const double low = -2.0;
  try {
    m.generateShared(&low, nullptr, rng);
    FAIL() << "no error for a quantity below its bound";
  } catch (const ModelEvaluationError& e) {
    EXPECT_STREQ(e.what(), "the generated quantity 'above' is below its lower bound (declared with <lower=lo>)");
  }
  const double ok = 0.5;
  try {
    m.generateShared(&ok, nullptr, rng);
    FAIL() << "no error for an element below its bound";
  } catch (const ModelEvaluationError& e) {
    EXPECT_STREQ(e.what(),
                 "the generated quantity 'counts.2' is below its lower bound (declared with <lower=0, upper=N>)");
  }
}

TEST(GeneratedRng, ArgumentsOutsideTheDomainNameTheCall) {
  Compiled c = compileModel(R"(
@partition(site)
data per site { int N; }
global { real mu; }
local per site { real u; }
model { mu ~ normal(0, 1); u ~ normal(mu, 1); }
generated {
  array[N] real ok = normal_rng(rep_vector(mu, N), 1);
  array[N] int y = poisson_rng(rep_vector(u, N));
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock part;
  part.addInt(2);
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, {part}, {"north"});
  const double z = 0.0, w = -1.0;  // poisson_rng(-1)
  pvi_rng rng = seeded(1, 0);
  try {
    m.generatePartition(0, &z, &w, nullptr, rng);
    FAIL() << "no error for a negative Poisson rate";
  } catch (const ModelEvaluationError& e) {
    EXPECT_STREQ(e.what(),
                 "poisson_rng at 9:20: arguments outside the distribution's domain (element 1 of its arguments) in "
                 "the generated quantities (partition north)");
  }
}

// Int arithmetic on an int computed in a loop, at the top of the generated block (posteriordb's
// M0_model: N = C + binomial_rng(M - C, p)): the size function must not try to compute it (it did,
// and code generation crashed).
TEST(GeneratedRng, IntArithmeticOnComputedInts) {
  Compiled c = compileModel(R"(
data { int M; array[M] int<lower=0, upper=1> seen; }
global { real<lower=0, upper=1> p; }
model { p ~ beta(1, 1); }
generated {
  int C = 0;
  for (i in 1:M) C += seen[i];
  int<lower=C, upper=M> N = C + binomial_rng(M - C, p);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock shared;
  shared.addInt(5).addInts({1, 0, 1, 0, 0});
  CompiledModel m(c.jit->code(), c.lowered->info, shared, {});
  const double z = 0.0;  // p = 1/2
  pvi_rng rng = seeded(3, 0);
  const std::vector<double> g = m.generateShared(&z, nullptr, rng);
  pvi_rng ref = seeded(3, 0);
  const int64_t trials = 3;
  const double half = 0.5;
  int64_t k = 0;
  ASSERT_EQ(pvi_binomial_rng(&ref, 1, &trials, 0, &half, 0, &k), 0);
  EXPECT_EQ(g, (std::vector<double>{2, 2.0 + static_cast<double>(k)}));
}

}  // namespace
}  // namespace pvi::test
