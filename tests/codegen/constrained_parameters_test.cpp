// simplex, ordered and positive_ordered parameters in generated code: the model's gradients
// (log-Jacobians included) match finite differences, the generated constrain and unconstrain maps
// invert each other for globals and locals, z has K - 1 coordinates per simplex and is named by
// them, and unconstraining a value outside its set is refused.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kModel = R"(
@partition(g)
data per g { array[3] int counts; }
parameters { simplex[3] theta; ordered[2] cut; array[2] positive_ordered[2] rate; }
local per g { simplex[3] phi; }
model {
  theta ~ dirichlet([2, 2, 2]');
  cut ~ normal(0, 2);
  for (j in 1:2) rate[j] ~ gamma(2, 1);
  phi ~ dirichlet(10 * theta);
  target += dot_product(to_vector(counts), log(phi));  // multinomial counts
}
)";

TEST(ConstrainedParameters, GradientsMapsAndNames) {
  Compiled c = compileModel(kModel);
  ASSERT_TRUE(c.jit) << c.errors;
  std::vector<DataBlock> parts(2);
  parts[0].addInts({3, 0, 2});
  parts[1].addInts({1, 4, 1});
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, parts);
  EXPECT_EQ(m.globalDim(), 2u + 2 + 4);  // theta: 2 of 3; cut: 2; rate: 2 x 2
  EXPECT_EQ(m.localDim(0), 2u);
  EXPECT_EQ(m.globalNames(), (std::vector<std::string>{"theta.1", "theta.2", "cut.1", "cut.2", "rate.1.1",
                                                        "rate.1.2", "rate.2.1", "rate.2.2"}));
  std::mt19937_64 rng(3);
  checkGradients(m, rng);
  const std::vector<double> z = randomVector(m.globalDim(), rng, 0.9), w = randomVector(m.localDim(1), rng, 0.9);
  const std::vector<double> x = m.constrainGlobals(z.data(), nullptr);
  ASSERT_EQ(x.size(), 3u + 2 + 4);
  EXPECT_NEAR(x[0] + x[1] + x[2], 1.0, 1e-15);
  EXPECT_LT(x[3], x[4]);
  const std::vector<double> back = m.unconstrainGlobals(x.data());
  ASSERT_EQ(back.size(), z.size());
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(back[i], z[i], 1e-12) << i;
  const std::vector<double> phi = m.constrainLocals(1, z.data(), w.data(), nullptr);
  ASSERT_EQ(phi.size(), 3u);
  const std::vector<double> wBack = m.unconstrainLocals(1, z.data(), phi.data(), nullptr);
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(wBack[i], w[i], 1e-12) << i;
  std::vector<double> bad = x;
  bad[0] += 0.1;  // theta no longer sums to 1
  EXPECT_THROW(m.unconstrainGlobals(bad.data()), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
