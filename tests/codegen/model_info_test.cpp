// The model description (ModelInfo), the generated shapes functions and the element names and
// output maps of CompiledModel built on them.
#include <gtest/gtest.h>

#include <cmath>

#include "stdlib/kernels/rng/rng.h"
#include "compiler/lower/Lower.hpp"
#include "model_harness.hpp"
#include "runtime/app/LinkedModel.hpp"

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
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  std::vector<double> s = m.generateShared(z.data(), theta.data(), draws);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s[0], -1.0 + std::exp(0.25) + 0.5, 1e-14);
  std::vector<double> w{0.1};
  std::vector<double> p = m.generatePartition(1, z.data(), w.data(), theta.data(), draws);
  ASSERT_EQ(p.size(), 1u);
  double eta = 0.5 * 0.25 * 2 + (-1.0 + std::exp(0.25));
  EXPECT_NEAR(p[0], 1 / (1 + std::exp(-eta)), 1e-14);
  std::vector<double> e = m.constrainLocals(1, z.data(), w.data(), theta.data());
  EXPECT_NEAR(e[0], std::exp(0.1), 1e-15);
  EXPECT_NEAR(m.unconstrainLocals(1, z.data(), e.data(), theta.data())[0], 0.1, 1e-15);
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
    pvi_rng draws;
    pvi_rng_seed(&draws, 1, 0);
    EXPECT_EQ(m.generateShared(z.data(), theta.data(), draws).size(), m.generatedSharedLayout().size());
    EXPECT_EQ(m.globalNames().size(), m.globalDim());
    for (size_t j = 0; j < m.numPartitions(); ++j) {
      std::vector<double> w(m.localDim(j), 0.1);
      EXPECT_EQ(m.localLayout(j).size(), m.localDim(j));
      EXPECT_EQ(m.generatePartition(j, z.data(), w.data(), theta.data(), draws).size(),
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
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  std::vector<double> picked = m.generateShared(z.data(), nullptr, draws);
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

// The factor ABI version travels with the description, and a description of another version is
// refused with a message naming both versions: by the JSON reader and by the loader of model
// objects (what executables built by `pvic build` use).
TEST(ModelInfo, AbiVersionRoundTripsAndAnotherVersionIsRefused) {
  Compiled c = compileModel("global { real mu; }\nmodel { mu ~ normal(0, 1); }\n");
  ASSERT_TRUE(c.jit) << c.errors;
  const ModelInfo& info = c.lowered->info;
  EXPECT_EQ(info.abiVersion, PVI_FACTOR_ABI_VERSION);
  const std::string json = toJson(info);
  const std::string field = "\"abi_version\":" + std::to_string(PVI_FACTOR_ABI_VERSION);
  ASSERT_NE(json.find(field), std::string::npos) << json;
  EXPECT_EQ(modelInfoFromJson(json).abiVersion, PVI_FACTOR_ABI_VERSION);
  EXPECT_EQ(loadModelObject(json.c_str(), c.jit->code()).info.abiVersion, PVI_FACTOR_ABI_VERSION);

  auto refused = [&](const std::string& text, const std::string& version) {
    for (int how = 0; how < 2; ++how) {
      try {
        if (how == 0) modelInfoFromJson(text);
        else loadModelObject(text.c_str(), c.jit->code());
        ADD_FAILURE() << "accepted " << text;
      } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("factor ABI version " + version), std::string::npos) << what;
        EXPECT_NE(what.find("implements version " + std::to_string(PVI_FACTOR_ABI_VERSION)), std::string::npos) << what;
      }
    }
  };
  std::string newer = json;
  newer.replace(json.find(field), field.size(), "\"abi_version\":" + std::to_string(PVI_FACTOR_ABI_VERSION + 1));
  refused(newer, std::to_string(PVI_FACTOR_ABI_VERSION + 1));
  std::string unversioned = json;  // an object from before the ABI had a version
  unversioned.replace(json.find(field), field.size() + 1, "");
  ASSERT_EQ(unversioned.find("abi_version"), std::string::npos) << unversioned;
  refused(unversioned, "0");
}

TEST(ModelInfo, LoadingAModelObjectRequiresEveryFunctionItNeeds) {
  Compiled c = compileModel(readExample("hierarchical_logistic"));
  ASSERT_TRUE(c.jit) << c.errors;
  const std::string json = toJson(c.lowered->info);
  EXPECT_NO_THROW(loadModelObject(json.c_str(), c.jit->code()));
  pvi_model_code code = c.jit->code();
  code.partition_grad = nullptr;
  try {
    loadModelObject(json.c_str(), code);
    ADD_FAILURE() << "accepted a model without pvi_partition_grad";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("pvi_partition_grad"), std::string::npos) << e.what();
  }
  EXPECT_THROW(loadModelObject(nullptr, c.jit->code()), std::runtime_error);
}

// The source hash: FNV-1a 64 over the source text, a NUL byte and the data schema (documented
// in ModelInfo.hpp); the same for the same source, wherever the file is, and different when the
// source changes.
TEST(ModelInfo, SourceHashChangesWithTheSourceOnly) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);  // the published FNV-1a test vectors
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(hashText(0x0123456789abcdefULL), "0123456789abcdef");

  const std::string source = "data { int N; vector[N] y; }\nglobal { real mu; }\nmodel { y ~ normal(mu, 1); }\n";
  auto hashOf = [](const std::string& path, const std::string& text) -> uint64_t {
    FrontendResult r = runFrontend(path, text);
    EXPECT_TRUE(r.ok()) << r.diags->brief();
    if (!r.ok()) return 0;
    std::optional<LoweredModel> m = lowerModel(*r.checked, *r.diags);
    EXPECT_TRUE(m) << r.diags->brief();
    return m ? m->info.sourceHash : 0;
  };
  const uint64_t h = hashOf("model.pvi", source);
  // Pinned: computed outside pvi from the documented definition, so it is stable across builds.
  EXPECT_EQ(hashText(h), "3abc7f86d744ddbd");
  EXPECT_EQ(hashOf("model.pvi", source), h);
  EXPECT_EQ(hashOf("elsewhere/other_name.pvi", source), h);
  EXPECT_NE(hashOf("model.pvi", source + "// a comment\n"), h);
  EXPECT_NE(hashOf("model.pvi", "data { int N; vector[N] y; }\nglobal { real mu; }\nmodel { y ~ normal(mu, 2); }\n"), h);
  // The schema enters as well.
  DataSchema schema;
  schema.shared.push_back(VariableInfo{});
  schema.shared[0].name = "N";
  schema.shared[0].type = "int";
  DataSchema other = schema;
  other.shared[0].type = "int<lower=0>";
  EXPECT_NE(modelSourceHash(source, schema), modelSourceHash(source, other));
  EXPECT_NE(modelSourceHash(source, schema), modelSourceHash(source, DataSchema{}));
  EXPECT_EQ(modelSourceHash(source, schema), modelSourceHash(source, schema));

  // It travels in the JSON description as 16 hexadecimal digits.
  Compiled c = compileModel(source);
  ASSERT_TRUE(c.jit) << c.errors;
  const std::string json = toJson(c.lowered->info);
  EXPECT_NE(json.find("\"source_hash\":\"" + hashText(c.lowered->info.sourceHash) + "\""), std::string::npos) << json;
  EXPECT_EQ(modelInfoFromJson(json).sourceHash, c.lowered->info.sourceHash);
}

// Each variable's transform is data: its kind and its bounds as written, with their values
// when they are numbers, for parameters and data (whose bounds are checks) alike.
// A fit tells a funnel from an improper posterior by whether the latent the mode search names has
// a proper prior (runtime/fit/Fit.cpp): the description says so for each global, and the model
// for each coordinate of z.
TEST(ModelInfo, SaysWhichLatentsHaveAProperPrior) {
  Compiled c = compileModel(R"(
data { int<lower=1> N; vector[N] y; }
global { real mu; real<lower=0> sigma; real<lower=0, upper=1> p; simplex[3] s; vector[2] b; real c; }
model { mu ~ normal(0, 1); b[1] ~ normal(0, 1); y ~ normal(mu + c + b[2], sigma); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const ModelInfo& info = c.lowered->info;
  std::vector<bool> described;
  for (const VariableInfo& g : info.globals) described.push_back(g.properPrior);
  // mu: a density's variate; sigma and c: only in the likelihood; p: bounded on both sides; s: a
  // simplex (uniform); b: an element is a variate (the checker's rule for its missing-prior warning).
  EXPECT_EQ(described, (std::vector<bool>{true, false, true, true, true, false}));
  EXPECT_EQ(toJson(modelInfoFromJson(toJson(info))), toJson(info));
  std::string old = toJson(info);  // a description that does not say: not known, so false
  for (std::size_t at; (at = old.find("\"proper_prior\":true")) != std::string::npos;)
    old.replace(at, 19, "\"x\":1");
  for (const VariableInfo& g : modelInfoFromJson(old).globals) EXPECT_FALSE(g.properPrior) << g.name;

  DataBlock shared;
  shared.addInt(2).addReals({0.5, -0.5});
  CompiledModel m(c.jit->code(), info, shared, {});
  ASSERT_EQ(m.globalDim(), 8u);  // the simplex has 2 coordinates
  EXPECT_EQ(m.globalsWithProperPrior(), (std::vector<bool>{true, false, true, true, true, true, true, false}));
}

TEST(ModelInfo, TransformsDescribeTheDeclaredBounds) {
  Compiled c = compileModel(R"(
data { int<lower=1> K; real a; real b; array[K] int<lower=0, upper=1> y; }
hyper { real<lower=0> tau; }
global { real mu; vector<lower=a, upper=b>[K] v; real<upper=-1.5> t; real<lower=-a> s; vector<lower=0.25, upper=4>[2] r; }
model { mu ~ normal(0, tau); v ~ normal(0, 1); t ~ normal(0, 1); s ~ normal(0, 1); r ~ normal(0, 1); }
generated { real m2 = mu * mu; }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  const ModelInfo& info = c.lowered->info;
  auto expectBound = [](const Bound& b, const std::string& expr, std::optional<double> constant) {
    EXPECT_EQ(b.expr, expr);
    EXPECT_EQ(b.constant.has_value(), constant.has_value()) << expr;
    if (b.constant && constant) EXPECT_EQ(*b.constant, *constant) << expr;
  };
  const Transform& tau = info.hypers.at(0).transform;  // real<lower=0>
  EXPECT_EQ(tau.kind, TransformKind::Lower);
  expectBound(tau.lower, "0", 0.0);
  expectBound(tau.upper, "", std::nullopt);
  ASSERT_EQ(info.globals.size(), 5u);
  const Transform& mu = info.globals[0].transform;  // unconstrained
  EXPECT_EQ(mu.kind, TransformKind::Identity);
  EXPECT_TRUE(mu.isIdentity());
  expectBound(mu.lower, "", std::nullopt);
  expectBound(mu.upper, "", std::nullopt);
  const Transform& v = info.globals[1].transform;  // vector<lower=a, upper=b>
  EXPECT_EQ(v.kind, TransformKind::LowerUpper);
  EXPECT_FALSE(v.isIdentity());
  expectBound(v.lower, "a", std::nullopt);
  expectBound(v.upper, "b", std::nullopt);
  const Transform& t = info.globals[2].transform;  // real<upper=-1.5>
  EXPECT_EQ(t.kind, TransformKind::Upper);
  expectBound(t.lower, "", std::nullopt);
  expectBound(t.upper, "-1.5", -1.5);
  const Transform& s = info.globals[3].transform;  // real<lower=-a>
  EXPECT_EQ(s.kind, TransformKind::Lower);
  expectBound(s.lower, "-a", std::nullopt);
  const Transform& r = info.globals[4].transform;  // vector<lower=0.25, upper=4>
  EXPECT_EQ(r.kind, TransformKind::LowerUpper);
  expectBound(r.lower, "0.25", 0.25);
  expectBound(r.upper, "4", 4.0);
  // Data bounds (checks) and generated quantities are described the same way.
  EXPECT_EQ(info.data.shared.at(0).transform.kind, TransformKind::Lower);
  const Transform& y = info.data.shared.at(3).transform;
  EXPECT_EQ(y.kind, TransformKind::LowerUpper);
  expectBound(y.lower, "0", 0.0);
  expectBound(y.upper, "1", 1.0);
  EXPECT_EQ(info.data.shared.at(1).transform.kind, TransformKind::Identity);
  EXPECT_EQ(info.generatedShared.at(0).transform.kind, TransformKind::Identity);  // declared without bounds

  // Round trip through the JSON description.
  ModelInfo back = modelInfoFromJson(toJson(info));
  EXPECT_EQ(toJson(back), toJson(info));
  ASSERT_EQ(back.globals.size(), 5u);
  EXPECT_EQ(back.globals[1].transform.kind, TransformKind::LowerUpper);
  expectBound(back.globals[1].transform.lower, "a", std::nullopt);
  expectBound(back.globals[2].transform.upper, "-1.5", -1.5);
  EXPECT_EQ(back.globals[0].transform.kind, TransformKind::Identity);
  EXPECT_EQ(back.data.shared[3].transform.kind, TransformKind::LowerUpper);
}

}  // namespace
}  // namespace pvi::test
