// Dump-and-compare tests of the factor IR and its gradient (pvic --dump-ir) for every example
// the code generator supports; PVI_UPDATE_DUMPS=1 rewrites tests/dump/<example>.ir.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/ad/Reverse.hpp"
#include "compiler/ir/Ir.hpp"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

class IrDumpTest : public ::testing::TestWithParam<std::string> {};

TEST_P(IrDumpTest, MatchesExpected) {
  std::filesystem::path root(PVI_SOURCE_DIR);
  FrontendResult r = runFrontend("model.pvi", readFile(root / "examples" / GetParam() / "model.pvi"));
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  auto lowered = lowerModel(*r.checked, *r.diags);
  ASSERT_TRUE(lowered) << r.diags->brief();
  std::ostringstream out;
  ir::print(out, lowered->prior);
  ir::print(out, differentiate(lowered->prior));
  ir::print(out, lowered->partition);
  ir::print(out, differentiate(lowered->partition));
  std::filesystem::path expected = root / "tests" / "dump" / (GetParam() + ".ir");
  const char* update = std::getenv("PVI_UPDATE_DUMPS");
  if (update && std::string(update) == "1") {
    std::ofstream(expected) << out.str();
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(expected)) << expected << " is missing; PVI_UPDATE_DUMPS=1 creates it";
  EXPECT_EQ(out.str(), readFile(expected)) << "IR differs from " << expected;
}

// The loop depth of every kernel call `name` in f.
std::vector<int> kernelDepths(const ir::Function& f, const std::string& name) {
  std::vector<int> depths;
  int depth = 0;
  for (const ir::Inst& i : f.insts) {
    if (i.op == ir::Op::LoopBegin) ++depth;
    if (i.op == ir::Op::LoopEnd) --depth;
    if (i.op == ir::Op::Kernel && i.name == name) depths.push_back(depth);
  }
  return depths;
}

// A declaration first read inside a loop is computed once, before it, in the function, its
// gradient (forward sweep and replay) and the generated quantities: computed at its first use, a
// matrix product would run once per iteration (145 times per evaluation of the digits network).
TEST(IrLowering, DeclarationReadInALoopIsComputedBeforeIt) {
  const std::string model = R"(
data { int N; int K; int D; matrix[N, D] X; array[N] int<lower=1, upper=K> y; }
global { matrix[D, K] W; }
model {
  W ~ normal(0, 1);
  matrix[N, K] logits = X * W;
  for (n in 1:N) {
    y[n] ~ categorical_logit(transpose(logits[n]));
  }
}
generated {
  matrix[N, K] p;
  {
    matrix[N, K] l = X * W;
    for (n in 1:N) {
      p[n] = transpose(softmax(transpose(l[n])));
    }
  }
}
)";
  FrontendResult r = runFrontend("model.pvi", model);
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  auto lowered = lowerModel(*r.checked, *r.diags);
  ASSERT_TRUE(lowered) << r.diags->brief();
  EXPECT_EQ(kernelDepths(lowered->prior, "matmul"), std::vector<int>{0});
  EXPECT_EQ(kernelDepths(differentiate(lowered->prior), "matmul"), std::vector<int>{0});
  EXPECT_EQ(kernelDepths(lowered->generateShared, "matmul"), std::vector<int>{0});
}

// The derivative rules of f: its Backward instructions' names.
std::vector<std::string> rules(const ir::Function& f) {
  std::vector<std::string> names;
  for (const ir::Inst& i : f.insts)
    if (i.op == ir::Op::Backward) names.push_back(i.name);
  return names;
}

// Values target does not read get no derivative rule: the checks of a transformed parameter's
// constrained type (an eigendecomposition here) run forward only, and the gradient is still the
// density's (against finite differences).
TEST(IrGradient, ValuesTargetDoesNotReadGetNoRule) {
  const std::string model = R"(
parameters { vector[3] z; }
transformed parameters {
  cov_matrix[2] S = [[exp(z[1]), z[2]], [z[2], exp(z[3])]];
  real<lower=0> positive = sum(exp(z));
}
model { z ~ normal(0, 1); target += -0.5 * S[1, 2]; }
)";
  Compiled c = compileModel(model);
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(kernelDepths(c.lowered->prior, "eigenvalues_sym"), std::vector<int>{0});
  const std::vector<std::string> names = rules(differentiate(c.lowered->prior));
  EXPECT_EQ(std::count(names.begin(), names.end(), "eigenvalues_sym"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "min"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "sum"), 0);  // `positive`, read by its bound's check only
  EXPECT_GE(std::count(names.begin(), names.end(), "exp"), 1);  // S's diagonal: target reads S[1, 2] of S
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, {});
  std::mt19937_64 rng(3);
  checkGradients(m, rng);
}

INSTANTIATE_TEST_SUITE_P(Examples, IrDumpTest,
                         ::testing::Values("linear_regression", "logistic_regression", "hierarchical_logistic",
                                           "six_cities", "clutter", "poisson_random_effect", "bnn_classifier",
                                           "digits_hierarchical_bnn"));

}  // namespace
}  // namespace pvi::test
