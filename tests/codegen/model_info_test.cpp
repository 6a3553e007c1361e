// The model description (ModelInfo), the generated shapes functions and the element names and
// output maps of CompiledModel built on them.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

TEST(ModelInfo, DescribesDeclarationsAndRoundTripsThroughJson) {
  Compiled c = compileModel(R"(
@partition(site)
data { int<lower=1> K; real lo; }
data per site { int N; matrix[N, K] X; array[N] int<lower=0, upper=1> y; }
hyper { real<lower=0> tau; }
global { real<lower=lo> a; vector[K] b; matrix[2, K + 1] M; }
local per site { vector<lower=0>[N] e; }
model { a ~ normal(0, 1); b ~ normal(0, tau); to_vector(M) ~ normal(0, 1); e ~ exponential(1);
        y ~ bernoulli_logit(X * b + a); }
generated { real s = a + sum(b); vector[N] p = inv_logit(X * b + a); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const ModelInfo& info = c.lowered->info;
  EXPECT_EQ(info.data.partitionName, "site");
  ASSERT_EQ(info.data.partition.size(), 3u);
  const VariableInfo& X = info.data.partition[1];
  EXPECT_EQ(X.name, "X");
  EXPECT_EQ(X.shape, ValueShape::Matrix);
  EXPECT_EQ(X.shapeDims, (std::vector<std::string>{"N", "K"}));
  const VariableInfo& y = info.data.partition[2];
  EXPECT_TRUE(y.isInt);
  EXPECT_FALSE(y.isScalar);
  EXPECT_EQ(y.arrayDims, (std::vector<std::string>{"N"}));
  ASSERT_EQ(info.globals.size(), 3u);
  EXPECT_EQ(info.globals[2].shapeDims, (std::vector<std::string>{"2", "K + 1"}));
  ASSERT_EQ(info.hypers.size(), 1u);
  EXPECT_EQ(info.hypers[0].type, "real<lower=0>");
  ASSERT_EQ(info.locals.size(), 1u);
  ASSERT_EQ(info.generatedShared.size(), 1u);
  ASSERT_EQ(info.generatedPartition.size(), 1u);
  EXPECT_EQ(info.generatedPartition[0].name, "p");

  ModelInfo back = modelInfoFromJson(toJson(info));
  EXPECT_EQ(toJson(back), toJson(info));
  EXPECT_EQ(back.globals[2].shape, ValueShape::Matrix);
  EXPECT_THROW(modelInfoFromJson("{\"name\": 3}"), std::runtime_error);
  EXPECT_THROW(modelInfoFromJson("not json"), std::runtime_error);

  // Concrete shapes and names from the data: K = 2, partitions of 3 and 1 rows.
  DataBlock shared;
  shared.addInt(2).addReal(-1.0);
  auto site = [](int64_t n) {
    DataBlock p;
    p.addInt(n).addReals(std::vector<double>(static_cast<size_t>(2 * n), 0.5)).addInts(std::vector<int64_t>(n, 1));
    return p;
  };
  CompiledModel m(c.jit->code(), info, shared, {site(3), site(1)});
  EXPECT_EQ(m.globalDim(), 1u + 2u + 6u);
  EXPECT_EQ(m.parameterLayout().elementNames(),
            (std::vector<std::string>{"a", "b.1", "b.2", "M.1.1", "M.2.1", "M.1.2", "M.2.2", "M.1.3", "M.2.3",
                                      "tau"}));
  std::vector<std::string> zNames = m.globalNames();
  ASSERT_EQ(zNames.size(), 9u);
  EXPECT_EQ(zNames.back(), "M.2.3");
  EXPECT_EQ(m.generatedSharedLayout().elementNames(), (std::vector<std::string>{"s"}));
  EXPECT_EQ(m.localLayout(0).size(), 3u);
  EXPECT_EQ(m.localLayout(1).elementNames(), (std::vector<std::string>{"e.1"}));
  EXPECT_EQ(m.generatedPartitionLayout(0).variables()[0].dims, (std::vector<int64_t>{3}));

  // The output maps agree with the layouts and invert each other.
  std::vector<double> z(m.globalDim(), 0.25), theta{-0.5};
  std::vector<double> constrained = m.constrainGlobals(z.data(), theta.data());
  ASSERT_EQ(constrained.size(), m.parameterLayout().size());
  EXPECT_NEAR(constrained[0], -1.0 + std::exp(0.25), 1e-15);
  EXPECT_NEAR(constrained.back(), std::exp(-0.5), 1e-15);
  std::vector<double> back2 = m.unconstrainGlobals(constrained.data());
  ASSERT_EQ(back2.size(), z.size() + 1);
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(back2[i], z[i], 1e-14);
  EXPECT_NEAR(back2.back(), -0.5, 1e-14);
  constrained[0] = -2.0;  // below a's lower bound
  EXPECT_THROW(m.unconstrainGlobals(constrained.data()), std::invalid_argument);
  std::vector<double> s = m.generateShared(z.data(), theta.data());
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s[0], -1.0 + std::exp(0.25) + 0.5, 1e-14);
  std::vector<double> w{0.1};
  std::vector<double> p = m.generatePartition(1, z.data(), w.data(), theta.data());
  ASSERT_EQ(p.size(), 1u);
  double eta = 0.5 * 0.25 * 2 + (-1.0 + std::exp(0.25));
  EXPECT_NEAR(p[0], 1 / (1 + std::exp(-eta)), 1e-14);
  std::vector<double> e = m.constrainLocals(1, w.data());
  EXPECT_NEAR(e[0], std::exp(0.1), 1e-15);
  EXPECT_NEAR(m.unconstrainLocals(1, e.data())[0], 0.1, 1e-15);
}

TEST(ModelInfo, EveryExampleHasConsistentLayouts) {
  for (const char* name : {"linear_regression", "logistic_regression", "hierarchical_logistic", "six_cities",
                           "clutter", "poisson_random_effect", "bnn_classifier"}) {
    SCOPED_TRACE(name);
    Compiled c = compileModel(readExample(name));
    ASSERT_TRUE(c.jit) << c.errors;
    std::mt19937_64 rng(5);
    GeneratedData data = randomData(*c.front.checked, 2, rng);
    CompiledModel m(c.jit->code(), c.lowered->info, data.shared, data.partitions);
    std::vector<double> z(m.globalDim(), 0.1), theta(m.hyperDim(), 0.1);
    EXPECT_EQ(m.constrainGlobals(z.data(), theta.data()).size(), m.parameterLayout().size());
    EXPECT_EQ(m.generateShared(z.data(), theta.data()).size(), m.generatedSharedLayout().size());
    EXPECT_EQ(m.globalNames().size(), m.globalDim());
    for (size_t j = 0; j < m.numPartitions(); ++j) {
      std::vector<double> w(m.localDim(j), 0.1);
      EXPECT_EQ(m.localLayout(j).size(), m.localDim(j));
      EXPECT_EQ(m.generatePartition(j, z.data(), w.data(), theta.data()).size(),
                m.generatedPartitionLayout(j).size());
    }
  }
}

// Element names follow the flat layout the generated code uses: an array's elements are
// contiguous and its indices row-major, so picking one element by index finds the value at the
// position of its name.
TEST(ModelInfo, ElementNamesFollowTheMemoryLayoutOfArrays) {
  Compiled c = compileModel(R"(
global { array[2] vector[3] mu; array[2, 3] real A; matrix[2, 2] M; }
model { for (k in 1:2) mu[k] ~ normal(0, 1); for (i in 1:2) A[i] ~ normal(0, 1); to_vector(M) ~ normal(0, 1); }
generated { real m21 = mu[2][1]; real m13 = mu[1][3]; real a12 = A[1, 2]; real a21 = A[2, 1]; real M12 = M[1, 2]; }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, {});
  std::vector<std::string> names = m.parameterLayout().elementNames();
  ASSERT_EQ(names.size(), 6u + 6u + 4u);
  std::vector<double> z(names.size());
  for (size_t i = 0; i < z.size(); ++i) z[i] = static_cast<double>(i);
  std::vector<double> picked = m.generateShared(z.data(), nullptr);
  auto at = [&](const std::string& name) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<double>(i);
    ADD_FAILURE() << "no element named " << name;
    return -1.0;
  };
  ASSERT_EQ(picked.size(), 5u);
  EXPECT_EQ(picked[0], at("mu.2.1"));
  EXPECT_EQ(picked[1], at("mu.1.3"));
  EXPECT_EQ(picked[2], at("A.1.2"));
  EXPECT_EQ(picked[3], at("A.2.1"));
  EXPECT_EQ(picked[4], at("M.1.2"));
}

}  // namespace
}  // namespace pvi::test
