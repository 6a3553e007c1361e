// Transformed data are computed once, when the data are bound (transform_shared and
// transform_partition), and read as data everywhere else: a program equals the same program given
// the computed values as data, in its dimension and its log density (value and gradient); the
// values of loops that size parameters, per-partition transformed data, _rng draws, declared
// bounds, reject and index errors all behave as Stan's transformed data do.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "model_harness.hpp"
#include "stdlib/kernels/rng/rng.h"

namespace pvi::test {
namespace {

// a and b have the same partition factors (values, and with `gradients` their gradients) at a
// random point per partition (one local each), within 1e-12 relative, b being the reference.
void expectSamePartitionFactors(const CompiledModel& a, const CompiledModel& b, std::mt19937_64& rng, bool gradients) {
  for (size_t j = 0; j < a.numPartitions(); ++j) {
    std::vector<double> z = randomVector(a.globalDim(), rng), w = randomVector(1, rng);
    std::vector<double> gza(z.size()), gzb(z.size()), gwa(1), gwb(1);
    const double va = a.partitionLogDensity(j, z.data(), w.data(), nullptr, gradients ? gza.data() : nullptr,
                                            gradients ? gwa.data() : nullptr, nullptr);
    const double vb = b.partitionLogDensity(j, z.data(), w.data(), nullptr, gradients ? gzb.data() : nullptr,
                                            gradients ? gwb.data() : nullptr, nullptr);
    EXPECT_NEAR(va, vb, 1e-12 * (1 + std::fabs(vb))) << "partition " << j;
    if (!gradients) continue;
    for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(gza[i], gzb[i], 1e-12 * (1 + std::fabs(gzb[i])));
    EXPECT_NEAR(gwa[0], gwb[0], 1e-12 * (1 + std::fabs(gwb[0])));
  }
}

// gpcm_latent_reg_irt's pattern (posteriordb): each item's number of steps and its first position
// in beta, computed in loops, size the parameters and index them.
const char* kLoopsModel = R"(
model {
  beta_free ~ normal(0, 2);
  sigma ~ lognormal(0, 1);
  for (n in 1:N) target += normal_lpdf(y[n] | sum(segment(beta, pos[ii[n]], m[ii[n]])), sigma);
}
)";

const std::string kLoopsProgram = std::string(R"(
data {
  int<lower=1> I;
  int<lower=1> N;
  array[N] int<lower=1, upper=I> ii;
  array[N] int<lower=0> y;
}
transformed data {
  array[I] int m = rep_array(0, I);
  array[I] int pos;
  for (n in 1:N) {
    if (y[n] > m[ii[n]]) m[ii[n]] = y[n];
  }
  pos[1] = 1;
  for (i in 2:I) pos[i] = m[i - 1] + pos[i - 1];
}
parameters {
  vector[sum(m) - 1] beta_free;
  real<lower=0> sigma;
}
transformed parameters {
  vector[sum(m)] beta = append_row(beta_free, -sum(beta_free));
}
)") + kLoopsModel;

const std::string kLoopsGivenAsData = std::string(R"(
data {
  int<lower=1> I;
  int<lower=1> N;
  array[N] int<lower=1, upper=I> ii;
  array[N] int<lower=0> y;
  array[I] int m;
  array[I] int pos;
  int S;
}
parameters {
  vector[S - 1] beta_free;
  real<lower=0> sigma;
}
transformed parameters {
  vector[S] beta = append_row(beta_free, -sum(beta_free));
}
)") + kLoopsModel;

TEST(TransformedData, LoopsThatSizeParametersEqualTheValuesGivenAsData) {
  Compiled a = compileModel(kLoopsProgram);
  Compiled b = compileModel(kLoopsGivenAsData);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  const std::vector<int64_t> ii{1, 2, 3, 1, 3, 3, 2}, y{2, 1, 0, 1, 3, 2, 2};
  // By hand: m = {2, 2, 3} (the largest y of each item), pos = {1, 3, 5}, sum(m) = 7.
  DataBlock given;
  given.addInt(3).addInt(7).addInts(ii).addInts(y);
  DataBlock written = given;
  written.addInts({2, 2, 3}).addInts({1, 3, 5}).addInt(7);
  CompiledModel ma(a.jit->code(), a.lowered->info, given, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, written, {});
  EXPECT_EQ(ma.globalDim(), 6u + 1u);
  EXPECT_EQ(a.lowered->info.globals[0].type, "vector[sum(m) - 1]");
  std::mt19937_64 rng(7);
  expectSamePriorFactor(ma, mb, rng, 4, 0.8);
  checkGradients(ma, rng);
  expectAotBitIdentical(a, given, {}, rng, "transformed_data_loops");
}

// A size that is not arithmetic over int scalars (an element of int data, a function's result)
// is computed once, as an int of the transformed data named by its text.
TEST(TransformedData, ASizeThatIsNotArithmeticBecomesATransformedInt) {
  Compiled c = compileModel(R"(
data { array[2] int<lower=1> g; array[3] int y; }
global { vector[g[2]] b; vector[max(y)] c; }
model { b ~ normal(0, 1); c ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(c.lowered->info.globals[0].type, "vector[g[2]]");
  ASSERT_EQ(c.lowered->info.data.transformedShared.size(), 2u);
  EXPECT_EQ(c.lowered->info.data.transformedShared[1].name, "max(y)");
  DataBlock d;
  d.addInts({1, 4}).addInts({2, 7, 3});
  CompiledModel m(c.jit->code(), c.lowered->info, d, {});
  EXPECT_EQ(m.globalDim(), 4u + 7u);
  EXPECT_EQ(m.globalNames()[4], "c.1");
}

// Per-partition transformed data (they read `data per site`) are computed for each partition;
// the shared ones once.
const char* kPartitionModel = R"(
model {
  mu ~ normal(0, 1);
  b ~ normal(0, 1);
  u ~ normal(mu + sum(b), 1);
  centred ~ normal(u, 1);
  y_mean ~ normal(mu, 2);
}
)";

const std::string kPartitionProgram = std::string(R"(
@partition(site)
data { int<lower=1> K; }
data per site { int<lower=1> n; vector[n] y; }
transformed data {
  int K2 = 2 * K;
  real y_mean = mean(y);
  vector[n] centred = y - y_mean;
}
global { real mu; vector[K2] b; }
local per site { real u; }
)") + kPartitionModel;

const std::string kPartitionGivenAsData = std::string(R"(
@partition(site)
data { int<lower=1> K; int K2; }
data per site { int<lower=1> n; vector[n] y; real y_mean; vector[n] centred; }
global { real mu; vector[K2] b; }
local per site { real u; }
)") + kPartitionModel;

TEST(TransformedData, PerPartitionValuesAreComputedForEachPartition) {
  Compiled a = compileModel(kPartitionProgram);
  Compiled b = compileModel(kPartitionGivenAsData);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  ASSERT_EQ(a.lowered->info.data.transformedShared.size(), 1u);     // K2
  ASSERT_EQ(a.lowered->info.data.transformedPartition.size(), 2u);  // y_mean, centred
  const std::vector<std::vector<double>> ys{{1.0, 2.5, -0.5}, {4.0, 6.0}};
  std::vector<DataBlock> given, written;
  for (const auto& y : ys) {
    const double mean = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
    std::vector<double> centred;
    for (double v : y) centred.push_back(v - mean);
    given.emplace_back().addInt(static_cast<int64_t>(y.size())).addReals(y);
    written.emplace_back().addInt(static_cast<int64_t>(y.size())).addReals(y).addReal(mean).addReals(centred);
  }
  DataBlock shared;
  shared.addInt(2);
  DataBlock sharedWritten = shared;
  sharedWritten.addInt(4);
  CompiledModel ma(a.jit->code(), a.lowered->info, shared, given);
  CompiledModel mb(b.jit->code(), b.lowered->info, sharedWritten, written);
  ASSERT_EQ(ma.globalDim(), 1u + 4u);
  std::mt19937_64 rng(11);
  expectSamePriorFactor(ma, mb, rng, 2, 0.8);
  expectSamePartitionFactors(ma, mb, rng, true);
  checkGradients(ma, rng);
  expectAotBitIdentical(a, shared, given, rng, "transformed_data_per_partition");
}

// _rng draws in transformed data happen once, the same at every binding with the same seed (a
// run's --seed) and others with another; the model and the generated quantities read the same
// draws.
TEST(TransformedData, DrawsAreMadeOnceAndReproducibly) {
  Compiled c = compileModel(R"(
data { int N; }
transformed data {
  vector[N] noise;
  for (i in 1:N) noise[i] = normal_rng(0, 1);
}
parameters { real mu; }
model { mu ~ normal(sum(noise), 1); }
generated quantities {
  real total = sum(noise);
  real squares = dot_self(noise);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const int64_t n = 4000;
  DataBlock data;
  data.addInt(n);
  CompiledModel first(c.jit->code(), c.lowered->info, data, {});
  CompiledModel second(c.jit->code(), c.lowered->info, data, {});
  pvi_rng rng;
  pvi_rng_seed(&rng, 3, 0);
  const double mu = 0.3;
  const std::vector<double> g1 = first.generateShared(&mu, nullptr, rng);
  const std::vector<double> g2 = second.generateShared(&mu, nullptr, rng);
  ASSERT_EQ(g1.size(), 2u);
  EXPECT_EQ(g1, g2);
  // N(0, 1) draws: the mean within 4 standard errors of 0, the mean square within 4 of 1.
  const double N = static_cast<double>(n);
  EXPECT_NEAR(g1[0] / N, 0.0, 4.0 / std::sqrt(N));
  EXPECT_NEAR(g1[1] / N, 1.0, 4.0 * std::sqrt(2.0 / N));
  // The model reads the same draws: log N(mu | total, 1).
  EXPECT_NEAR(first.priorLogDensity(&mu, nullptr, nullptr, nullptr), normalLpdf(mu, g1[0], 1.0), 1e-9);
  // Another seed, other draws; the same seed, the same draws.
  CompiledModel seven(c.jit->code(), c.lowered->info, data, {}, {}, {}, 7);
  CompiledModel sevenAgain(c.jit->code(), c.lowered->info, data, {}, {}, {}, 7);
  const std::vector<double> g7 = seven.generateShared(&mu, nullptr, rng);
  EXPECT_NE(g7[0], g1[0]);
  EXPECT_EQ(g7, sevenAgain.generateShared(&mu, nullptr, rng));
}

DataBlock reals(std::vector<double> y) {
  DataBlock d;
  d.addInt(static_cast<int64_t>(y.size())).addReals(std::move(y));
  return d;
}

// As data read from files, transformed data may not be NaN (pvic's rule; Stan allows it).
TEST(TransformedData, DeclaredBoundsAndNaNAreCheckedWhenTheDataAreBound) {
  Compiled c = compileModel(R"(
data { int N; vector[N] y; }
transformed data {
  real<lower=0> spread = max(y) - 2;
  vector[N] scaled = (y - min(y)) / (max(y) - min(y));
}
parameters { real mu; }
model { mu ~ normal(0, spread + 1); scaled ~ normal(mu, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_NO_THROW(CompiledModel(c.jit->code(), c.lowered->info, reals({1.0, 3.0}), {}));
  try {
    CompiledModel m(c.jit->code(), c.lowered->info, reals({1.0, 1.5}), {});
    FAIL() << "a transformed data value below its bound was accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("the transformed data 'spread' is below its lower bound"), std::string::npos)
        << e.what();
  }
  try {
    CompiledModel m(c.jit->code(), c.lowered->info, reals({3.0, 3.0}), {});  // 0 / 0
    FAIL() << "a NaN transformed data value was accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("the transformed data 'scaled' is NaN (element 1)"), std::string::npos)
        << e.what();
  }
}

TEST(TransformedData, RejectAndIndexErrorsStopTheBinding) {
  Compiled c = compileModel(R"(
data { int N; vector[N] y; }
transformed data {
  real last = y[N];
  if (last < 0) reject("the last value is negative: ", last);
}
parameters { real mu; }
model { mu ~ normal(last, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_NO_THROW(CompiledModel(c.jit->code(), c.lowered->info, reals({1.0, 3.0}), {}));
  try {
    CompiledModel m(c.jit->code(), c.lowered->info, reals({1.0, -3.0}), {});
    FAIL() << "reject in transformed data did not stop the binding";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("the transformed data block called reject"), std::string::npos) << e.what();
  }
  Compiled out = compileModel(R"(
data { int N; vector[N] y; }
transformed data { real beyond = y[N + 1]; }
parameters { real mu; }
model { mu ~ normal(beyond, 1); }
)");
  ASSERT_TRUE(out.jit) << out.errors;
  try {
    CompiledModel m(out.jit->code(), out.lowered->info, reals({1.0, 2.0}), {});
    FAIL() << "an index out of range in transformed data was not reported";
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("in the transformed data"), std::string::npos) << what;
    EXPECT_NE(what.find("y[N + 1]"), std::string::npos) << what;
  }
}

// Elsewhere transformed data are read with the sizes their declarations give from the block's
// final values; a size that changes after a declaration it sizes is refused.
TEST(TransformedData, ASizeAssignedAfterTheDeclarationItSizesIsRefused) {
  Compiled c = compileModel(R"(
data { int K; }
transformed data {
  int n = K;
  vector[n] v = rep_vector(1, n);
  n = n + 1;
}
parameters { vector[n] beta; }
model { beta ~ normal(0, 1); }
)");
  EXPECT_FALSE(c.jit);
  EXPECT_NE(c.errors.find("'n' sizes 'v' and is assigned after its declaration"), std::string::npos) << c.errors;
  // Assigned before any declaration it sizes, the final value sizes the parameters (as in Stan).
  Compiled ok = compileModel(R"(
data { int K; }
transformed data {
  int n = K;
  n = n + 1;
  vector[n] v = rep_vector(1, n);
}
parameters { vector[n] beta; }
model { beta ~ normal(v, 1); }
)");
  ASSERT_TRUE(ok.jit) << ok.errors;
  DataBlock d;
  d.addInt(3);
  CompiledModel m(ok.jit->code(), ok.lowered->info, d, {});
  EXPECT_EQ(m.globalDim(), 4u);
}

}  // namespace
}  // namespace pvi::test

namespace pvi::test {
namespace {

DataBlock ints(std::vector<int64_t> values) {
  DataBlock d;
  for (int64_t v : values) d.addInt(v);
  return d;
}

// Size equalities that read transformed ints are checked once they are computed: here X * b
// needs K == Kc, which no data satisfy.
TEST(TransformedData, SizeChecksThatReadThemAreMadeAfterTheyAreComputed) {
  Compiled c = compileModel(R"(
data { int N; int K; matrix[N, K] X; vector[N] y; }
transformed data { int Kc = K - 1; }
parameters { vector[Kc] b; }
model { b ~ normal(0, 1); y ~ normal(X * b, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock d = ints({2, 3});
  d.addReals(std::vector<double>(6, 1.0)).addReals({0.5, 1.5});
  try {
    CompiledModel m(c.jit->code(), c.lowered->info, d, {});
    FAIL() << "a size mismatch through a transformed int was not reported";
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("transformed data"), std::string::npos) << what;
    EXPECT_NE(what.find("K = 3"), std::string::npos) << what;
    EXPECT_NE(what.find("Kc = 2"), std::string::npos) << what;
  }
}

// A block without variables still runs: its reject validates the data.
TEST(TransformedData, ABlockWithoutVariablesStillRuns) {
  Compiled c = compileModel(R"(
data { int N; }
transformed data { if (N < 2) reject("need two, got ", N); }
parameters { real mu; }
model { mu ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_NO_THROW(CompiledModel(c.jit->code(), c.lowered->info, ints({2}), {}));
  EXPECT_THROW(CompiledModel(c.jit->code(), c.lowered->info, ints({1}), {}), DataError);
}

// Per partition: a user function of shared and per-partition arguments (its inlined temporaries
// move with the statements that read them), a shared variable assigned again after a
// per-partition statement read it (that statement sees the value at its place), a size computed
// by a user function, and the inliner's conditional temporaries (not variables of the block).
TEST(TransformedData, PerPartitionStatementsSeeTheValuesAtTheirPlace) {
  Compiled a = compileModel(R"(
functions {
  vector shift(vector v, real c) { return v - c; }
  int twice(int k) { return 2 * k; }
}
@partition(site)
data { real c; int K; }
data per site { int<lower=1> n; vector[n] y; }
transformed data {
  vector[n] yc = shift(y, c);
  real s = c + 1;
  vector[n] ys = y * s;
  s = c * 10;
  vector[twice(K)] ones = rep_vector(1, twice(K));
  real pick = K > 1 ? c : -c;
}
global { real mu; vector[2 * K] b; }
local per site { real u; }
model {
  mu ~ normal(0, 1);
  b ~ normal(pick, 1);
  u ~ normal(mu, 1);
  yc ~ normal(u, 1);
  ys ~ normal(u + s, 1);
}
)");
  Compiled b = compileModel(R"(
@partition(site)
data { real c; int K; }
data per site { int<lower=1> n; vector[n] y; vector[n] yc; vector[n] ys; }
global { real mu; vector[2 * K] b; }
local per site { real u; }
model {
  mu ~ normal(0, 1);
  b ~ normal(K > 1 ? c : -c, 1);
  u ~ normal(mu, 1);
  yc ~ normal(u, 1);
  ys ~ normal(u + c * 10, 1);
}
)");
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  for (const DataField& f : a.lowered->info.data.transformedShared)
    EXPECT_EQ(f.name.find("conditional"), std::string::npos) << f.name;
  const double cValue = 0.7;
  DataBlock shared;
  shared.addReal(cValue).addInt(2);
  std::vector<DataBlock> given, written;
  for (const std::vector<double>& y : {std::vector<double>{1.0, 2.0}, std::vector<double>{-1.0, 0.5, 3.0}}) {
    std::vector<double> yc, ys;
    for (double v : y) {
      yc.push_back(v - cValue);
      ys.push_back(v * (cValue + 1));  // s as it was when ys was computed
    }
    given.emplace_back().addInt(static_cast<int64_t>(y.size())).addReals(y);
    written.emplace_back().addInt(static_cast<int64_t>(y.size())).addReals(y).addReals(yc).addReals(ys);
  }
  CompiledModel ma(a.jit->code(), a.lowered->info, shared, given);
  CompiledModel mb(b.jit->code(), b.lowered->info, shared, written);
  std::mt19937_64 rng(5);
  expectSamePriorFactor(ma, mb, rng, 2, 0.8);
  expectSamePartitionFactors(ma, mb, rng, false);
}

}  // namespace
}  // namespace pvi::test
