// Element-wise arithmetic fused into one loop per tree (compiler/fuse): which operations fuse,
// and that the fused code computes the same values (bit for bit) and gradients (to rounding, and
// against finite differences) as one kernel call per operation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "compiler/fuse/FuseElementwise.hpp"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

// Every operation, broadcast scalars, a parameter vector (read twice, and in a denominator), and a
// data vector read twice.
const char* kTree = R"(
@partition(site)
data per site { int N; vector[N] x; vector[N] z; vector[N] y; }
global { real alpha; real b; real c; real<lower=0> sigma; }
local per site { vector[N] u; }
model {
  alpha ~ normal(0, 1); b ~ normal(0, 1); c ~ normal(0, 1); sigma ~ lognormal(0, 1);
  u ~ normal(0, 1);
  y ~ normal(alpha + u - b * x + c * z ./ (2 + x .* x) + -(b * z) + x ./ (1.5 + u .* u), sigma);
}
)";

int count(const ir::Function& f, const std::string& kernel) {
  return static_cast<int>(std::count_if(f.insts.begin(), f.insts.end(),
                                        [&](const ir::Inst& i) { return i.op == ir::Op::Kernel && i.name == kernel; }));
}

const std::vector<std::string> kElementwise = {"ew_add", "ew_sub", "ew_mul", "ew_div", "neg"};

TEST(FusedElementwise, ATreeOfOperationsBecomesOneInstruction) {
  Compiled fused = compileModel(kTree), plain = compileModel(kTree, false);
  ASSERT_TRUE(fused.jit && plain.jit) << fused.errors << plain.errors;
  int before = 0;
  for (const std::string& k : kElementwise) {
    before += count(plain.lowered->partition, k);
    EXPECT_EQ(count(fused.lowered->partition, k), 0) << k;
  }
  EXPECT_GE(before, 9);
  ASSERT_EQ(count(fused.lowered->partition, kFusedElementwise), 1);
  const ir::Inst& tree = *std::find_if(fused.lowered->partition.insts.begin(), fused.lowered->partition.insts.end(),
                                       [](const ir::Inst& i) { return i.name == kFusedElementwise; });
  // Leaves: alpha, u, b, x, c, z, the constants 2 and 1.5 (u, x and b once each, though read
  // twice or more).
  EXPECT_EQ(tree.operands.size(), 8u);
  EXPECT_EQ(std::count(tree.texts.begin(), tree.texts.end(), "neg"), 1);
  EXPECT_EQ(std::count(tree.texts.begin(), tree.texts.end(), "/"), 2);
}

// A value read twice is computed once, and the operations that read it form trees of their own;
// nothing fuses across a loop; a variable assigned in a loop is a leaf of the tree in its body.
const char* kShared = R"(
@partition(site)
data per site { int N; vector[N] x; vector[N] y; }
global { real a; real b; }
model {
  a ~ normal(0, 1); b ~ normal(0, 1);
  vector[N] eta = a + b * x;
  y ~ normal(eta, 1);
  y ~ normal(eta .* eta - x, 2);
  for (k in 1:2) y ~ normal(a * x + k, 3);
  vector[N] m = x;
  for (k in 1:2) m = m + b * x;
  y ~ normal(m .* m, 4);
}
)";

TEST(FusedElementwise, SharedValuesAndLoopsBoundTrees) {
  Compiled c = compileModel(kShared);
  ASSERT_TRUE(c.jit) << c.errors;
  for (const std::string& k : kElementwise) EXPECT_EQ(count(c.lowered->partition, k), 0) << k;
  // eta; eta .* eta - x; a * x + k; m + b * x; m .* m
  EXPECT_EQ(count(c.lowered->partition, kFusedElementwise), 5);
}

// The fused loops against one kernel call per operation: the same log density bit for bit, the
// same gradient up to the order of its sums, and the gradient against finite differences.
TEST(FusedElementwise, ValuesAndGradientsEqualOneCallPerOperation) {
  const std::vector<std::string> models = {
      kTree,
      kShared,
      readExample("hierarchical_logistic"),
      readExample("six_cities"),
      readExample("poisson_random_effect"),
      readFile(std::filesystem::path(PVI_SOURCE_DIR) / "examples" / "eight_schools" / "noncentered.pvi")};
  for (const std::string& source : models) {
    Compiled fused = compileModel(source), plain = compileModel(source, false);
    ASSERT_TRUE(fused.jit && plain.jit) << fused.errors << plain.errors;
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 3; ++trial) {
      GeneratedData data = randomData(*fused.front.checked, 2, rng);
      CompiledModel a(fused.jit->code(), fused.lowered->schema, data.shared, data.partitions);
      CompiledModel b(plain.jit->code(), plain.lowered->schema, data.shared, data.partitions);
      ASSERT_EQ(a.globalDim(), b.globalDim());
      for (size_t p = 0; p < data.partitions.size(); ++p) {
        const std::vector<double> z = randomVector(a.globalDim(), rng), w = randomVector(a.localDim(p), rng),
                                  theta = randomVector(a.hyperDim(), rng);
        const double* t = theta.empty() ? nullptr : theta.data();
        std::vector<double> gz(z.size()), gw(w.size()), gt(theta.size()), hz(z.size()), hw(w.size()), ht(theta.size());
        const double va = a.partitionLogDensity(p, z.data(), w.data(), t, gz.data(), gw.data(), gt.data());
        const double vb = b.partitionLogDensity(p, z.data(), w.data(), t, hz.data(), hw.data(), ht.data());
        const double value = a.partitionLogDensity(p, z.data(), w.data(), t, nullptr, nullptr, nullptr);
        EXPECT_EQ(value, b.partitionLogDensity(p, z.data(), w.data(), t, nullptr, nullptr, nullptr));
        EXPECT_NEAR(va, vb, 1e-12 * (1 + std::fabs(vb)));
        auto near = [&](const std::vector<double>& g, const std::vector<double>& h, const char* what) {
          for (size_t k = 0; k < g.size(); ++k)
            EXPECT_NEAR(g[k], h[k], 1e-12 * (1 + std::fabs(h[k]))) << what << "[" << k << "] partition " << p;
        };
        near(gz, hz, "gradient z");
        near(gw, hw, "gradient w");
        near(gt, ht, "gradient theta");
      }
      {  // the prior factor (its scalar arithmetic is fused too)
        const std::vector<double> z = randomVector(a.globalDim(), rng), theta = randomVector(a.hyperDim(), rng);
        const double* t = theta.empty() ? nullptr : theta.data();
        std::vector<double> gz(z.size()), gt(theta.size()), hz(z.size()), ht(theta.size());
        EXPECT_EQ(a.priorLogDensity(z.data(), t, nullptr, nullptr), b.priorLogDensity(z.data(), t, nullptr, nullptr));
        const double va = a.priorLogDensity(z.data(), t, gz.data(), gt.data());
        const double vb = b.priorLogDensity(z.data(), t, hz.data(), ht.data());
        EXPECT_NEAR(va, vb, 1e-12 * (1 + std::fabs(vb)));
        for (size_t k = 0; k < gz.size(); ++k)
          EXPECT_NEAR(gz[k], hz[k], 1e-12 * (1 + std::fabs(hz[k]))) << "prior z " << k;
        for (size_t k = 0; k < gt.size(); ++k)
          EXPECT_NEAR(gt[k], ht[k], 1e-12 * (1 + std::fabs(ht[k]))) << "prior theta " << k;
      }
      checkGradients(a, rng);
    }
  }
}

}  // namespace
}  // namespace pvi::test
