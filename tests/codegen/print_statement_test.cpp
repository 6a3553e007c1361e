// print and reject in a factor function: print writes one line per evaluation (value or
// gradient), with the values at the point; reject makes the factor -inf without an error, at the
// points where its branch runs, and a branch that only prints or rejects may test a latent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kPrintingModel = R"(
data { int N; }
parameters { real mu; vector[2] v; }
model {
  print("mu is ", mu, ", v is ", v, ", N is ", N);
  if (mu > 2) reject("mu = ", mu, " is above 2");
  mu ~ normal(0, 1);
  v ~ normal(0, 1);
}
)";

TEST(PrintStatement, PrintsOncePerEvaluationAndRejectGivesMinusInfinity) {
  Compiled c = compileModel(kPrintingModel);
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock data;
  data.addInt(7);
  CompiledModel m(c.jit->code(), c.lowered->info, data, {});
  const std::vector<double> z{0.5, -1.25, 3};
  std::vector<double> g(3);
  double value = 0, withGradient = 0;
  const std::string printed = stderrOf([&] {
    value = m.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    withGradient = m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
  });
  EXPECT_EQ(printed, "mu is 0.5, v is [-1.25,3], N is 7\nmu is 0.5, v is [-1.25,3], N is 7\n");
  const double expected = normalLpdf(0.5, 0, 1) + normalLpdf(-1.25, 0, 1) + normalLpdf(3, 0, 1);
  EXPECT_NEAR(value, expected, 1e-12);
  EXPECT_NEAR(withGradient, expected, 1e-12);
  EXPECT_NEAR(g[0], -0.5, 1e-12);
  EXPECT_NEAR(g[1], 1.25, 1e-12);
  EXPECT_NEAR(g[2], -3.0, 1e-12);
  const std::vector<double> above{2.5, 0, 0};
  double rejected = 0;
  const std::string message = stderrOf([&] { rejected = m.priorLogDensity(above.data(), nullptr, g.data(), nullptr); });
  EXPECT_EQ(rejected, -INFINITY);
  EXPECT_NE(message.find("reject: mu = 2.5 is above 2"), std::string::npos) << message;
}

// A print or reject in transformed parameters runs with the model block's copy of them, not in
// the generated quantities' copy (which would print again per draw, or end the run on a reject).
TEST(PrintStatement, TransformedParametersPrintWithTheModelOnly) {
  Compiled c = compileModel(
      "parameters { real mu; }\n"
      "transformed parameters { real t = 2 * mu; print(\"t = \", t); if (t > 10) reject(\"t = \", t); }\n"
      "model { mu ~ normal(0, 1); }\n");
  ASSERT_TRUE(c.jit) << c.errors;
  auto prints = [](const ir::Function& f) {
    return std::count_if(f.insts.begin(), f.insts.end(), [](const ir::Inst& i) { return i.op == ir::Op::Print; });
  };
  EXPECT_EQ(prints(c.lowered->prior), 2);
  EXPECT_EQ(prints(c.lowered->generateShared), 0);
}

// Declared bounds of transformed parameters are checked at the end of the model block's copy, as
// Stan checks them: outside them (or at NaN) the density is zero; inside, the checks change
// neither the value nor the gradient.
TEST(PrintStatement, TransformedParameterBoundsRejectThePointsOutsideThem) {
  Compiled c = compileModel(R"(
parameters { real mu; vector[2] v; }
transformed parameters {
  real<lower=0> shifted = mu + 1;
  vector<upper=3>[2] w = v * 2;
  array[2] real<lower=-1, upper=1> a = {mu, v[1]};
}
model { mu ~ normal(0, 1); v ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(c.front.diags->warningCount(), 0u) << c.errors;
  CompiledModel m(c.jit->code(), c.lowered->schema, DataBlock{}, {});
  auto lp = [&](std::vector<double> z, std::string* message = nullptr) {
    std::vector<double> g(3);
    double v = 0;
    const std::string text = stderrOf([&] { v = m.priorLogDensity(z.data(), nullptr, g.data(), nullptr); });
    if (message != nullptr) *message = text;
    return std::pair{v, g};
  };
  // Inside every bound: three independent N(0, 1) terms, and their gradient -z.
  const auto [inside, g] = lp({0.5, -0.2, 0.9});
  EXPECT_NEAR(inside, normalLpdf(0.5, 0, 1) + normalLpdf(-0.2, 0, 1) + normalLpdf(0.9, 0, 1), 1e-12);
  EXPECT_NEAR(g[0], -0.5, 1e-12);
  EXPECT_NEAR(g[2], -0.9, 1e-12);
  std::string message;
  EXPECT_EQ(lp({-1.5, 0.0, 0.0}, &message).first, -INFINITY);  // shifted = -0.5 < 0
  EXPECT_NE(message.find("reject: the transformed parameter 'shifted' is below its lower bound (lower=0)"),
            std::string::npos)
      << message;
  EXPECT_EQ(lp({0.0, 0.5, 1.6}, &message).first, -INFINITY);  // w[2] = 3.2 > 3
  EXPECT_NE(message.find("'w' is above its upper bound (upper=3)"), std::string::npos) << message;
  EXPECT_EQ(lp({0.0, -1.2, 0.0}, &message).first, -INFINITY);  // a[2] = v[1] < -1
  EXPECT_NE(message.find("'a[2]' is below its lower bound (lower=-1)"), std::string::npos) << message;
  EXPECT_EQ(lp({NAN, 0.0, 0.0}).first, -INFINITY);
}

TEST(PrintStatement, FatalErrorInTheModelIsAnEvaluationError) {
  Compiled c = compileModel("parameters { real mu; }\nmodel { mu ~ normal(0, 1); if (mu > 1) fatal_error(\"mu = \", mu); }\n");
  ASSERT_TRUE(c.jit) << c.errors;
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, {});
  const double below = 0.5, above = 1.5;
  EXPECT_NEAR(m.priorLogDensity(&below, nullptr, nullptr, nullptr), -0.125 - 0.91893853320467274, 1e-14);
  std::string message;
  const std::string printed = stderrOf([&] {
    try {
      m.priorLogDensity(&above, nullptr, nullptr, nullptr);
    } catch (const ModelEvaluationError& e) {
      message = e.what();
    }
  });
  EXPECT_EQ(printed, "fatal_error: mu = 1.5 (at test.pvi:2:40)\n");
  EXPECT_NE(message.find("the model called fatal_error: mu = 1.5 (at test.pvi:2:40)"), std::string::npos) << message;
}

// reject and fatal_error name their statement (file:line:column), and in a partition's factor the
// partition.
TEST(PrintStatement, RejectNamesTheStatementAndThePartition) {
  Compiled c = compileModel(R"(@partition(site)
data per site { int<lower=1> n; vector[n] y; }
global { real mu; }
model {
  mu ~ normal(0, 1);
  if (max(y) > 10) reject("y too large: ", max(y));
  y ~ normal(mu, 1);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  std::vector<DataBlock> parts(2);
  parts[0].addInt(2).addReals({1.0, 2.0});
  parts[1].addInt(2).addReals({1.0, 20.0});
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, parts, {"north", "south"});
  const double mu = 0.5;
  double north = 0, south = 0;
  EXPECT_EQ(stderrOf([&] { north = m.partitionLogDensity(0, &mu, nullptr, nullptr, nullptr, nullptr, nullptr); }), "");
  EXPECT_NEAR(north, normalLpdf(1.0, mu, 1) + normalLpdf(2.0, mu, 1), 1e-12);
  EXPECT_EQ(stderrOf([&] { south = m.partitionLogDensity(1, &mu, nullptr, nullptr, nullptr, nullptr, nullptr); }),
            "reject (site south): y too large: 20 (at test.pvi:6:20)\n");
  EXPECT_EQ(south, -INFINITY);
  // The prior's messages name no partition.
  EXPECT_EQ(stderrOf([&] { m.priorLogDensity(&mu, nullptr, nullptr, nullptr); }), "");
}

}  // namespace
}  // namespace pvi::test
