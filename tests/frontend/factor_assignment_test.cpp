// Factor assignment: which factor every model statement joins, including through model
// variables, loops and conditions, and the errors for crossing partition boundaries.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace pvi::test {
namespace {

// "line:factor" for each model statement, e.g. "7:prior 9:silo".
std::string factors(const std::string& text) {
  FrontendResult r = check(text);
  if (!r.ok()) return "error: " + r.diags->brief();
  std::string out;
  for (const auto& a : r.checked->model) {
    LineCol lc = r.file->lineCol(a.stmt->span.begin);
    out += (out.empty() ? "" : " ") + std::to_string(lc.line) + ":" + (a.factor.isPrior() ? "prior" : a.factor.partition);
  }
  return out;
}

const char* kHeader = R"(@partition(silo)
data { real s; }
data per silo { int N; vector[N] y; }
global { real mu; }
local per silo { real b; }
model {
)";

TEST(FactorAssignment, DirectUse) {
  EXPECT_EQ(factors(std::string(kHeader) +
                    "  mu ~ normal(0, s);\n"        // 7: globals and shared data only
                    "  b ~ normal(mu, 1);\n"        // 8: a local
                    "  y ~ normal(mu + b, 1);\n"    // 9: per-partition data
                    "  target += -mu * mu;\n"       // 10
                    "}\n"),
            "7:prior 8:silo 9:silo 10:prior");
}

TEST(FactorAssignment, ThroughVariablesLoopsAndConditions) {
  EXPECT_EQ(factors(std::string(kHeader) +
                    "  real m = mu * 2;\n"                        // 7
                    "  m ~ normal(0, 1);\n"                       // 8: m depends on a global only
                    "  real t = sum(y);\n"                        // 9
                    "  mu ~ normal(t, 1);\n"                      // 10: through t
                    "  for (n in 1:N) mu ~ normal(0, 1);\n"       // 11: through the loop bound
                    "  if (s > 0) mu ~ normal(0, 1);\n"           // 12: shared condition
                    "  if (N > 3) mu ~ normal(0, 1);\n"           // 13: per-partition condition
                    "  b ~ normal(0, 1);\n"                       // 14
                    "}\n"),
            "8:prior 10:silo 11:silo 12:prior 13:silo 14:silo");
}

TEST(FactorAssignment, AssignmentLaterInALoopReachesEarlierStatements) {
  EXPECT_EQ(factors(std::string(kHeader) +
                    "  real acc = 0;\n"                           // 7
                    "  for (k in 1:3) {\n"                        // 8
                    "    acc ~ normal(mu, 1);\n"                  // 9: acc gets y's partition below
                    "    acc = acc + y[1];\n"                     // 10
                    "  }\n"
                    "  mu ~ normal(0, 1);\n"                      // 12
                    "  b ~ normal(0, 1);\n"                       // 13
                    "}\n"),
            "9:silo 12:prior 13:silo");
}

const char* kTwoPartitions = R"(@partition(hospital, lab)
data per hospital { int N; vector[N] y; }
data per lab { int M; vector[M] z; }
global { real mu; }
local per hospital { real b; }
local per lab { real c; }
model {
  mu ~ normal(0, 1);
  b ~ normal(0, 1);
  c ~ normal(0, 1);
)";

TEST(FactorAssignment, TwoPartitionKinds) {
  EXPECT_EQ(factors(std::string(kTwoPartitions) + "  y ~ normal(mu + b, 1);\n  z ~ normal(mu + c, 1);\n}\n"),
            "8:prior 9:hospital 10:lab 11:hospital 12:lab");
}

TEST(FactorAssignment, MixingPartitionsIsAnError) {
  EXPECT_EQ(factors(std::string(kTwoPartitions) + "  target += sum(y) + sum(z);\n}\n"),
            "error: 11:3: error: this statement mixes partitions 'hospital' and 'lab': 'y' belongs to 'hospital' "
            "and 'z' to 'lab'\n");
  EXPECT_EQ(factors(std::string(kTwoPartitions) + "  z ~ normal(b, 1);\n}\n"),
            "error: 11:3: error: local 'b' of partition 'hospital' is used outside its partition: this statement "
            "also uses 'z' of partition 'lab'\n");
}

TEST(FactorAssignment, MixingThroughAVariableIsReportedOnce) {
  EXPECT_EQ(factors(std::string(kTwoPartitions) + "  real t = b + c;\n  t ~ normal(0, 1);\n}\n"),
            "error: 11:3: error: local 'b' of partition 'hospital' is used outside its partition: the value of 't' "
            "also uses local 'c' of partition 'lab'\n");
}

TEST(FactorAssignment, MixingIsReportedWhereTheSecondPartitionComesIn) {
  EXPECT_EQ(factors(std::string(kTwoPartitions) + "  real t = sum(y);\n  t += sum(z);\n  t ~ normal(0, 1);\n}\n"),
            "error: 12:3: error: the value of 't' mixes partitions 'hospital' and 'lab': 'y' belongs to 'hospital' "
            "and 'z' to 'lab'\n");
}

TEST(FactorAssignment, GeneratedBlockMayBranchOnLatents) {
  FrontendResult r = check(std::string(kHeader) +
                           "  mu ~ normal(0, 1);\n  b ~ normal(0, 1);\n}\n"
                           "generated {\n  real s2 = 0;\n  if (mu > 0) s2 = 1;\n  real t = mu > 0 ? 1 : 0;\n}\n");
  EXPECT_TRUE(r.ok()) << r.diags->brief();
}

std::string warnings(const std::string& text) {
  FrontendResult r = check(text);
  return r.diags->brief();
}

TEST(Priors, LatentOnTheLeftOfTildeHasAPrior) {
  EXPECT_EQ(warnings("global { vector[3] beta; matrix[2, 2] W; real s; }\nmodel {\n  beta[1] ~ normal(0, 1);\n"
                     "  to_vector(W) ~ normal(0, 1);\n  target += normal_lpdf(s | 0, 1);\n}\n"),
            "");
}

TEST(Priors, LatentOnlyInsideAnExpressionHasNoPrior) {
  EXPECT_EQ(warnings("data { real y; }\nglobal { real m; }\nmodel {\n  (y - m) ~ normal(0, 1);\n}\n"),
            "2:15: warning: global latent 'm' has no prior statement; it gets an improper flat prior\n");
}

// Arithmetic on one latent and constants is a density of that latent (posteriordb's
// multi_occupancy: (rho_uv + 1) / 2 ~ beta(2, 2)); with a second latent it is neither's prior.
TEST(Priors, ArithmeticOnOneLatentAloneIsItsPrior) {
  EXPECT_EQ(warnings("global { real r; real a; real b; }\nmodel {\n  (r + 1) / 2 ~ beta(2, 2);\n"
                     "  -a ~ normal(0, 1);\n  a - b ~ normal(0, 1);\n}\n"),
            "1:31: warning: global latent 'b' has no prior statement; it gets an improper flat prior\n");
  // Not one-to-one: a contrast, a quadratic form, a comparison.
  EXPECT_EQ(warnings("global { vector[2] v; real a; }\nmodel {\n  [1, -1] * v ~ normal(0, 1);\n"
                     "  (a > 0) ~ bernoulli(0.5);\n}\n"),
            "1:20: warning: global latent 'v' has no prior statement; it gets an improper flat prior\n"
            "1:28: warning: global latent 'a' has no prior statement; it gets an improper flat prior\n");
}

// A latent bounded on both sides has a proper uniform prior without a statement, as a simplex.
TEST(Priors, ALatentBoundedOnBothSidesNeedsNone) {
  EXPECT_EQ(warnings("global { real<lower=-1, upper=1> rho; real<lower=0> s; }\nmodel {\n}\n"),
            "1:53: warning: global latent 's' has no prior statement; it gets an improper flat prior\n");
}

TEST(Priors, HyperparametersNeedNoPrior) {
  EXPECT_EQ(warnings("data { real y; }\nhyper { real<lower=0> s; }\nglobal { real m; }\nmodel {\n"
                     "  m ~ normal(0, s);\n  y ~ normal(m, 1);\n}\n"),
            "");
}

TEST(FactorAssignment, GeneratedQuantitiesAreClassifiedToo) {
  FrontendResult r = check(std::string(kHeader) +
                           "  mu ~ normal(0, 1);\n  b ~ normal(0, 1);\n}\n"
                           "generated {\n  real mu2 = mu * mu;\n  real yhat = mu + b;\n}\n");
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  ASSERT_EQ(r.checked->generated.size(), 2u);
  EXPECT_TRUE(r.checked->generated[0].factor.isPrior());
  EXPECT_EQ(r.checked->generated[1].factor.partition, "silo");
}

}  // namespace
}  // namespace pvi::test
