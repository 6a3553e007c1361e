// A compiled model notes why a log density was not finite (runtime/model/NonFiniteReason.hpp):
// the first statement whose term was -inf or NaN, with its position and its partition, or the
// reject that made the density zero; a finite evaluation after a clear notes nothing.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"
#include "runtime/model/NonFiniteReason.hpp"

namespace pvi::test {
namespace {

TEST(NonFiniteReason, NamesTheFirstStatementWhoseTermIsNotFiniteAndItsPartition) {
  Compiled c = compileModel(R"(@partition(site)
data per site { int<lower=1> n; vector[n] y; real s; }
global { real mu; real<lower=0> tau; }
model {
  mu ~ normal(0, tau - 1);
  tau ~ exponential(1);
  y ~ normal(mu, s);
  if (max(y) > 10) reject("y too large: ", max(y));
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::vector<DataBlock> parts(3);
  parts[0].addInt(2).addReals({1.0, 2.0}).addReal(1.0);
  parts[1].addInt(2).addReals({1.0, 2.0}).addReal(-1.0);  // a negative scale: the term is -inf
  parts[2].addInt(2).addReals({1.0, 20.0}).addReal(1.0);
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, parts, {"north", "south", "east"});
  std::vector<double> g(2);
  const std::vector<double> finite = {0.5, std::log(2.0)}, zeroScale = {0.5, 0.0};  // tau = 2, tau = 1
  for (bool gradient : {false, true}) {
    double* gz = gradient ? g.data() : nullptr;
    clearNonFiniteReason();
    EXPECT_TRUE(std::isfinite(m.priorLogDensity(finite.data(), nullptr, gz, nullptr)));
    EXPECT_TRUE(std::isfinite(m.partitionLogDensity(0, finite.data(), nullptr, nullptr, gz, nullptr, nullptr)));
    EXPECT_EQ(nonFiniteReason(), "");
    EXPECT_FALSE(std::isfinite(m.priorLogDensity(zeroScale.data(), nullptr, gz, nullptr)));
    EXPECT_EQ(nonFiniteReason(), "the term of 'mu ~ normal(0, tau - 1);' at 5:3 is not finite") << gradient;
    // The first factor that was not finite since the clear keeps its reason (a joint density
    // evaluates every factor).
    EXPECT_FALSE(std::isfinite(m.partitionLogDensity(1, finite.data(), nullptr, nullptr, gz, nullptr, nullptr)));
    EXPECT_EQ(nonFiniteReason(), "the term of 'mu ~ normal(0, tau - 1);' at 5:3 is not finite") << gradient;
    clearNonFiniteReason();
    EXPECT_FALSE(std::isfinite(m.partitionLogDensity(1, finite.data(), nullptr, nullptr, gz, nullptr, nullptr)));
    EXPECT_EQ(nonFiniteReason(), "the term of 'y ~ normal(mu, s);' at 7:3 (site south) is not finite") << gradient;
    clearNonFiniteReason();
    stderrOf(
        [&] { EXPECT_EQ(m.partitionLogDensity(2, finite.data(), nullptr, nullptr, gz, nullptr, nullptr), -INFINITY); });
    EXPECT_EQ(nonFiniteReason(), "reject (site east): y too large: 20 (at test.pvi:8:20)") << gradient;
  }
}

}  // namespace
}  // namespace pvi::test
