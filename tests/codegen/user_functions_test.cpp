// Stan's user-defined functions, inlined at their calls (compiler/desugar/InlineFunctions.hpp):
// each program must give the value and gradient of the same program with the functions written
// out by hand, and its gradients must match finite differences. The cases cover what posteriordb's
// programs use: scalar and vector results, loops that fill a vector, int arguments that size a
// local matrix, functions calling functions, an if/else that returns, user-defined densities
// through '~' and target += ..._lupdf, a void _lp function, and dims() sizing a local with
// variables declared in the branches of an if.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

struct FunctionCase {
  const char* name;
  const char* functions;  // the functions block
  const char* withCalls;  // the model block's last statements, calling them
  const char* written;    // the same statements written out
};

const FunctionCase kFunctionCases[] = {
    {"scalar", "real growth(real t, real omega, real theta) { return 1 - exp(-(t / theta) ^ omega); }",
     "target += growth(2.5, sigma, exp(alpha));", "target += 1 - exp(-(2.5 / exp(alpha)) ^ sigma);"},
    {"vector_result", "vector normalize(vector x) { return x / sum(x); }",
     "beta ~ normal(normalize(exp(beta)) * 3, sigma);",
     "beta ~ normal(exp(beta) / sum(exp(beta)) * 3, sigma);"},
    {"loop_fills_vector",
     R"(vector spectral(vector x, real sdgp, real lscale) {
          vector[rows(x)] out;
          real constant = square(sdgp) * sqrt(2 * pi()) * lscale;
          for (m in 1:rows(x)) out[m] = constant * exp(-0.5 * square(lscale) * square(x[m]));
          return out;
        })",
     "z ~ normal(spectral(z, sigma, exp(alpha)), 1);",
     R"(vector[N] out;
        for (m in 1:N) out[m] = square(sigma) * sqrt(2 * 3.14159265358979323846) * exp(alpha) * exp(-0.5 * square(exp(alpha)) * square(z[m]));
        z ~ normal(out, 1);)"},
    {"int_arguments_size_a_matrix",
     R"(matrix eigen(vector A, vector B, int n1, int n2, real s2) {
          matrix[n1, n2] e;
          for (i in 1:n1) for (j in 1:n2) e[i, j] = A[i] * B[j] + s2;
          return e;
        })",
     "target += -sum(eigen(beta, exp(beta), K, K, sigma));",
     R"(matrix[K, K] e;
        for (i in 1:K) for (j in 1:K) e[i, j] = beta[i] * exp(beta[j]) + sigma;
        target += -sum(e);)"},
    {"functions_calling_functions",
     R"(real lp_observed(int X, int K, real logit_psi, real logit_theta) {
          return log_inv_logit(logit_psi) + binomial_logit_lpmf(X | K, logit_theta);
        }
        real lp_unobserved(int K, real logit_psi, real logit_theta) {
          return log_sum_exp(lp_observed(0, K, logit_psi, logit_theta), log1m_inv_logit(logit_psi));
        })",
     "for (n in 1:N) target += lp_unobserved(3, alpha, beta[1] + z[n]);",
     R"(for (n in 1:N) target += log_sum_exp(log_inv_logit(alpha) + binomial_logit_lpmf(0 | 3, beta[1] + z[n]),
                                          log1m_inv_logit(alpha));)"},
    {"if_else_returns",
     R"(real soft(real x) {
          if (x > 0) {
            return log1p(x);
          } else {
            return x;
          }
        })",
     "for (n in 1:N) target += -square(soft(z[n]) - alpha);",
     "for (n in 1:N) target += -square((z[n] > 0 ? log1p(z[n]) : z[n]) - alpha);"},
    {"conditional_evaluates_one_branch",  // lagged(z, 1) would read z[0]
     R"(real lagged(vector y, int t) { return y[t - 1]; }
        real lead(vector y, int t) { return y[t] * two(); }
        real two() { return 2; })",
     "for (n in 1:N) target += -square(n > 1 ? lagged(z, n) : lead(z, n)) - (n > 1 ? lagged(z, n) : 0) * beta[1];",
     "for (n in 1:N) target += -square(n > 1 ? z[n - 1] : z[n] * 2) - (n > 1 ? z[n - 1] : 0) * beta[1];"},
    {"user_density_by_tilde",
     "real shifted_lpdf(vector y, real mu, real s) { return normal_lpdf(y | mu + 1, s); }",
     "z ~ shifted(alpha, sigma); target += shifted_lupdf(beta | alpha, 2);",
     "z ~ normal(alpha + 1, sigma); target += normal_lpdf(beta | alpha + 1, 2);"},
    {"dims_and_variables_of_a_branch",  // posteriordb's accel_gp (brms's spd_cov_exp_quad)
     R"(vector spd(array[] vector x, real sdgp, vector lscale) {
          int NB = dims(x)[1];
          int D = dims(x)[2];
          int Dls = rows(lscale);
          vector[NB] out;
          if (Dls == 1) {
            real constant = square(sdgp) * sqrt(2 * pi()) ^ D * dims(x)[Dls] / 2;  // dims(x)[1] = 2
            for (m in 1:NB) out[m] = constant * exp(-0.5 * dot_self(x[m]));
          } else {
            real constant = square(sdgp) * prod(lscale) * dims(x)[Dls];  // dims(x)[3] = 1
            for (m in 1:NB) out[m] = constant * exp(-0.5 * dot_product(lscale, square(x[m])));
          }
          return out;
        })",
     "target += -sum(spd({beta, 2 * beta}, sigma, exp(beta))) - sum(spd({[alpha]', [2 * alpha]'}, sigma, [alpha]'));",
     R"(target += -square(sigma) * prod(exp(beta)) * (exp(-0.5 * dot_product(exp(beta), square(beta)))
                                                      + exp(-0.5 * dot_product(exp(beta), square(2 * beta))))
                   - square(sigma) * sqrt(2 * pi()) * (exp(-0.5 * square(alpha)) + exp(-0.5 * square(2 * alpha)));)"},
    {"void_lp_function",
     R"(void shrink_lp(vector b, real scale) {
          b ~ normal(0, scale);
          target += -0.5 * dot_self(b);
        })",
     "shrink_lp(beta, sigma);", "beta ~ normal(0, sigma); target += -0.5 * dot_self(beta);"},
};

std::string functionProgram(const char* functions, const char* statements) {
  return std::string("functions {\n") + functions + R"(
}
data { int N; int K; vector[N] z; }
parameters { real alpha; vector[K] beta; real<lower=0> sigma; }
model {
  alpha ~ normal(0, 1);
  beta ~ normal(0, 1);
  sigma ~ exponential(1);
  )" + statements + "\n}\n";
}

class UserFunctions : public ::testing::TestWithParam<FunctionCase> {};

TEST_P(UserFunctions, EqualTheFunctionsWrittenOut) {
  const FunctionCase& c = GetParam();
  Compiled calls = compileModel(functionProgram(c.functions, c.withCalls));
  Compiled written = compileModel(functionProgram("", c.written));
  ASSERT_TRUE(calls.jit) << calls.errors;
  ASSERT_TRUE(written.jit) << written.errors;
  std::mt19937_64 rng(21);
  const size_t N = 4, K = 3;
  DataBlock shared;
  shared.addInt(N).addInt(K).addReals(randomVector(N, rng, 1.0));
  CompiledModel a(calls.jit->code(), calls.lowered->info, shared, {});
  CompiledModel b(written.jit->code(), written.lowered->info, shared, {});
  expectSamePriorFactor(a, b, rng, 3, 0.8);
  checkGradients(a, rng);
}

INSTANTIATE_TEST_SUITE_P(Cases, UserFunctions, ::testing::ValuesIn(kFunctionCases),
                         [](const ::testing::TestParamInfo<FunctionCase>& i) { return std::string(i.param.name); });

// A function of a partition's data and locals joins that partition's factor, and the generated
// quantities it computes are written under their own names only (no inlined temporaries).
TEST(UserFunctionsFederated, PartitionFactorsAndGeneratedQuantities) {
  const char* withCalls = R"(
functions {
  vector offsets(vector eta, real tau) { return tau * eta; }
  real centre(real mu, real o) { return mu + o; }
}
@partition(school)
data per school { real y; real<lower=0> s; }
parameters { real mu; real<lower=0> tau; }
local per school { vector[1] eta; }
model {
  mu ~ normal(0, 5);
  tau ~ normal(0, 5);
  eta ~ normal(0, 1);
  y ~ normal(centre(mu, offsets(eta, tau)[1]), s);
}
generated quantities {
  real theta = centre(mu, offsets(eta, tau)[1]);
}
)";
  const char* written = R"(
@partition(school)
data per school { real y; real<lower=0> s; }
parameters { real mu; real<lower=0> tau; }
local per school { vector[1] eta; }
model {
  mu ~ normal(0, 5);
  tau ~ normal(0, 5);
  eta ~ normal(0, 1);
  y ~ normal(mu + tau * eta[1], s);
}
generated quantities {
  real theta = mu + tau * eta[1];
}
)";
  Compiled calls = compileModel(withCalls);
  Compiled plain = compileModel(written);
  ASSERT_TRUE(calls.jit) << calls.errors;
  ASSERT_TRUE(plain.jit) << plain.errors;
  ASSERT_EQ(calls.lowered->info.generatedPartition.size(), 1u);
  EXPECT_EQ(calls.lowered->info.generatedPartition[0].name, "theta");
  EXPECT_TRUE(calls.lowered->info.generatedShared.empty());
  std::mt19937_64 rng(5);
  DataBlock shared;
  std::vector<DataBlock> parts(3);
  for (DataBlock& p : parts) p.addReal(randomVector(1, rng, 3.0)[0]).addReal(1.5);
  CompiledModel a(calls.jit->code(), calls.lowered->info, shared, parts);
  CompiledModel b(plain.jit->code(), plain.lowered->info, shared, parts);
  std::vector<double> z = randomVector(a.globalDim(), rng), w = randomVector(a.localDim(0), rng);
  std::vector<double> gza(z.size()), gzb(z.size()), gwa(w.size()), gwb(w.size());
  for (size_t j = 0; j < parts.size(); ++j) {
    const double va = a.partitionLogDensity(j, z.data(), w.data(), nullptr, gza.data(), gwa.data(), nullptr);
    const double vb = b.partitionLogDensity(j, z.data(), w.data(), nullptr, gzb.data(), gwb.data(), nullptr);
    EXPECT_NEAR(va, vb, 1e-12 * (1 + std::fabs(vb)));
    for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(gza[i], gzb[i], 1e-12 * (1 + std::fabs(gzb[i])));
    for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(gwa[i], gwb[i], 1e-12 * (1 + std::fabs(gwb[i])));
  }
  checkGradients(a, rng);
}

// Stan's _lupdf / _lupmf are _lpdf / _lpmf, in programs without a functions block too.
TEST(UnnormalisedDensities, LupdfIsLpdfWithoutAFunctionsBlock) {
  Compiled a = compileModel(
      "parameters { real mu; }\nmodel { target += normal_lupdf(mu | 1, 2) + poisson_lupmf(3 | exp(mu)); }\n");
  Compiled b = compileModel(
      "parameters { real mu; }\nmodel { target += normal_lpdf(mu | 1, 2) + poisson_lpmf(3 | exp(mu)); }\n");
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  CompiledModel ma(a.jit->code(), a.lowered->info, DataBlock{}, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, DataBlock{}, {});
  double z = 0.4, ga = 0, gb = 0;
  EXPECT_EQ(ma.priorLogDensity(&z, nullptr, &ga, nullptr), mb.priorLogDensity(&z, nullptr, &gb, nullptr));
  EXPECT_EQ(ga, gb);
}

// An _lp function called in transformed parameters adds to target (in the model block's copy of
// the block) and its value is written as the transformed parameter, without the inlined
// temporaries.
TEST(UserFunctionsTransformed, LpFunctionInTransformedParameters) {
  const char* withCall = R"(
functions {
  real centred_lp(real raw, real scale) {
    raw ~ normal(0, 1);
    return raw * scale;
  }
}
parameters { real raw; real<lower=0> tau; }
transformed parameters { real theta = centred_lp(raw, tau); }
model { tau ~ exponential(1); target += normal_lpdf(1.5 | theta, 1); }
)";
  const char* written = R"(
parameters { real raw; real<lower=0> tau; }
transformed parameters { real theta = raw * tau; }
model { raw ~ normal(0, 1); tau ~ exponential(1); target += normal_lpdf(1.5 | theta, 1); }
)";
  Compiled a = compileModel(withCall);
  Compiled b = compileModel(written);
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  ASSERT_EQ(a.lowered->info.generatedShared.size(), 1u);
  EXPECT_EQ(a.lowered->info.generatedShared[0].name, "theta");
  CompiledModel ma(a.jit->code(), a.lowered->info, DataBlock{}, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, DataBlock{}, {});
  std::mt19937_64 rng(2);
  expectSamePriorFactor(ma, mb, rng, 1, 0.7);
}

}  // namespace
}  // namespace pvi::test
