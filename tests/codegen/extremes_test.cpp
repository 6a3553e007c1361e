// max and min, of a container and of two values: the model equals the same model written with
// fmax / fmin and constants (value and gradient), and the gradients match finite differences.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kExtremes = R"(
data { array[3] int k; }
parameters { real alpha; vector[3] beta; }
model {
  int top = max(k);
  alpha ~ normal(0, 1);
  beta ~ normal(0, 1);
  target += max(beta) - min(beta) + min(k) * alpha + max(alpha, 0.5) + min(alpha, beta[2]) + max(2, 3) + top;
}
)";

const char* kWritten = R"(
data { array[3] int k; }
parameters { real alpha; vector[3] beta; }
model {
  alpha ~ normal(0, 1);
  beta ~ normal(0, 1);
  target += fmax(fmax(beta[1], beta[2]), beta[3]) - fmin(fmin(beta[1], beta[2]), beta[3]) + 2 * alpha
            + fmax(alpha, 0.5) + fmin(alpha, beta[2]) + 3 + 7;
}
)";

TEST(Extremes, EqualTheWrittenOutModel) {
  Compiled a = compileModel(kExtremes);
  Compiled b = compileModel(kWritten);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  DataBlock shared;
  shared.addInts({4, 2, 7});
  CompiledModel ma(a.jit->code(), a.lowered->info, shared, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, shared, {});
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<double> z = randomVector(ma.globalDim(), rng, 1.0), ga(z.size()), gb(z.size());
    const double va = ma.priorLogDensity(z.data(), nullptr, ga.data(), nullptr);
    const double vb = mb.priorLogDensity(z.data(), nullptr, gb.data(), nullptr);
    EXPECT_NEAR(va, vb, 1e-12 * (1 + std::fabs(vb)));
    for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(ga[i], gb[i], 1e-12) << i;
  }
  checkGradients(ma, rng);
}

}  // namespace
}  // namespace pvi::test
