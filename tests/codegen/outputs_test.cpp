// Output functions: constrained values of the latents and generated quantities.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "stdlib/kernels/rng/rng.h"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

// Output and generate functions (the latter with a random number state, which the models here
// do not use) alike.
template <class Fn>
std::vector<double> runOutput(Fn fn, pvi_dims_fn size, const DataBlock& shared, const DataBlock* part,
                              const double* z, const double* w) {
  int64_t dims[3] = {0, 0, 0};
  size(shared.pointers(), part ? part->pointers() : nullptr, dims);
  std::vector<double> out(static_cast<size_t>(dims[0]), NAN), ws(4096);
  int64_t status = 0;
  if constexpr (std::is_same_v<Fn, pvi_generate_fn>) {
    pvi_rng rng;
    pvi_rng_seed(&rng, 1, 0);
    fn(z, w, nullptr, shared.pointers(), part ? part->pointers() : nullptr, out.data(), ws.data(),
       static_cast<int64_t>(ws.size() * sizeof(double)), &status, &rng);
  } else {
    fn(z, w, nullptr, shared.pointers(), part ? part->pointers() : nullptr, out.data(), ws.data(),
       static_cast<int64_t>(ws.size() * sizeof(double)), &status);
  }
  EXPECT_EQ(status, 0);
  return out;
}

TEST(Outputs, ConstrainAppliesEveryTransform) {
  Compiled c = compileModel(R"(
@partition(silo)
data { real lo; }
data per silo { int N; }
global { real a; real<lower=lo> b; vector<lower=-1, upper=2>[2] c; real<upper=3> d; }
local per silo { vector<lower=0>[N] e; }
model { a ~ normal(0, 1); b ~ normal(0, 1); c ~ normal(0, 1); d ~ normal(0, 1); e ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const pvi_model_code& code = c.jit->code();
  DataBlock shared, part;
  shared.addReal(0.5);
  part.addInt(2);
  std::vector<double> z = {0.3, -0.2, 0.4, -1.5, 0.7}, w = {0.1, -0.3};
  std::vector<double> g = runOutput(code.constrain_globals, code.constrain_globals_size, shared, nullptr, z.data(), nullptr);
  auto il = [](double u) { return 1 / (1 + std::exp(-u)); };
  std::vector<double> expected = {0.3, 0.5 + std::exp(-0.2), -1 + 3 * il(0.4), -1 + 3 * il(-1.5), 3 - std::exp(0.7)};
  ASSERT_EQ(g.size(), expected.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], expected[i], 1e-15) << i;
  std::vector<double> l = runOutput(code.constrain_locals, code.constrain_locals_size, shared, &part, z.data(), w.data());
  ASSERT_EQ(l.size(), 2u);
  EXPECT_NEAR(l[0], std::exp(0.1), 1e-15);
  EXPECT_NEAR(l[1], std::exp(-0.3), 1e-15);

  // Round trips through the inverse maps.
  std::vector<double> zBack = runOutput(code.unconstrain_globals, code.constrain_globals_size, shared, nullptr, g.data(), nullptr);
  ASSERT_EQ(zBack.size(), z.size());
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(zBack[i], z[i], 1e-14) << i;
  std::vector<double> wBack = runOutput(code.unconstrain_locals, code.constrain_locals_size, shared, &part, nullptr, l.data());
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(wBack[i], w[i], 1e-14) << i;

  // A value outside its bounds is refused, not mapped to NaN.
  std::vector<double> bad = g;
  bad[1] = 0.4;  // b has lower bound 0.5
  std::vector<double> out(z.size()), ws(4096);
  int64_t status = 0;
  code.unconstrain_globals(bad.data(), nullptr, nullptr, shared.pointers(), nullptr, out.data(), ws.data(),
                           static_cast<int64_t>(ws.size() * sizeof(double)), &status);
  EXPECT_EQ(status, PVI_STATUS_VALUE_OUT_OF_BOUNDS);
}

// The logistic regression example's test-set predictions.
TEST(Outputs, GeneratedQuantitiesOfTheLogisticExample) {
  Compiled c = compileModel(readExample("logistic_regression"));
  ASSERT_TRUE(c.jit) << c.errors;
  ASSERT_EQ(c.lowered->generatedShared.size(), 1u);  // p_test needs only the globals
  const int64_t D = 2, Ntest = 3;
  std::vector<double> Xtest = {0.5, -1.0, 2.0, 1.5, 0.0, -0.5};  // column-major 3 x 2
  DataBlock shared;
  shared.addInt(D).addReal(1.0).addInt(Ntest).addReals(Xtest).addInts({1, 0, 1});
  std::vector<double> z = {0.2, -0.7, 0.4};  // alpha, beta
  std::vector<double> p = runOutput(c.jit->code().generate_shared, c.jit->code().generate_shared_size, shared, nullptr,
                                    z.data(), nullptr);
  ASSERT_EQ(p.size(), 3u);
  for (int64_t n = 0; n < Ntest; ++n) {
    double eta = z[0] + Xtest[n] * z[1] + Xtest[n + Ntest] * z[2];
    EXPECT_NEAR(p[static_cast<size_t>(n)], 1 / (1 + std::exp(-eta)), 1e-15);
  }
}

TEST(Outputs, PartitionGeneratedQuantities) {
  Compiled c = compileModel(readExample("poisson_random_effect"));
  ASSERT_TRUE(c.jit) << c.errors;
  ASSERT_EQ(c.lowered->generatedPartition.size(), 1u);  // rate needs the group's data and effect
  EXPECT_NE(c.jit->code().generate_partition, nullptr);
}

}  // namespace
}  // namespace pvi::test
