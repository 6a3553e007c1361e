// The declared bounds and constrained types of transformed parameters, transformed data and
// generated quantities are checked as Stan checks them (compiler/desugar/DeclaredChecks.hpp): a
// transformed parameter that fails them makes the density zero, with a message naming the
// element and the failed condition; where they hold, the checks change neither the value nor the
// gradient. Transformed data that fail them stop the binding, generated quantities the output.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"
#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/rng/rng.h"

namespace pvi::test {
namespace {

// The message of the last reject on this thread (stderr shows only a process's first 20), after
// `f`; empty when `f` rejected nothing.
template <class F>
std::string rejectMessageOf(F f) {
  stderrOf([] {  // an empty fatal_error line clears the last message
    pvi_print_begin();
    pvi_print_end(2);
  });
  stderrOf(f);
  return pvi_last_message();
}

// The message of the E that `f` throws ("" for none), its standard error discarded.
template <class E, class F>
std::string errorOf(F f) {
  std::string message;
  stderrOf([&] {
    try {
      f();
    } catch (const E& e) {
      message = e.what();
    }
  });
  return message;
}

struct Invalid {
  std::vector<double> z;
  std::string message;  // a part of the reject message
};

struct Case {
  std::string declaration;  // of a transformed parameter computed from `vector[D] z`
  std::vector<double> valid;
  std::vector<Invalid> invalid;
};

// The model z ~ normal(0, 1) with the transformed parameter of `c`: at the valid point the density
// and gradient are the model's without it; at each invalid point the density is zero and the
// reject message says what failed.
void expectChecked(const Case& c) {
  const size_t D = c.valid.size();
  Compiled compiled = compileModel("parameters { vector[" + std::to_string(D) + "] z; }\ntransformed parameters {\n  " +
                                   c.declaration + "\n}\nmodel { z ~ normal(0, 1); }\n");
  ASSERT_TRUE(compiled.jit) << compiled.errors;
  EXPECT_EQ(compiled.front.diags->warningCount(), 0u) << compiled.errors;
  CompiledModel m(compiled.jit->code(), compiled.lowered->schema, DataBlock{}, {});
  std::vector<double> g(D);
  std::string printed;
  double lp = 0;
  printed = stderrOf([&] { lp = m.priorLogDensity(c.valid.data(), nullptr, g.data(), nullptr); });
  double expected = 0;
  for (double z : c.valid) expected += normalLpdf(z, 0, 1);
  EXPECT_NEAR(lp, expected, 1e-12) << c.declaration;
  for (size_t k = 0; k < D; ++k) EXPECT_NEAR(g[k], -c.valid[k], 1e-12) << c.declaration;
  EXPECT_EQ(printed, "") << c.declaration;
  for (const Invalid& bad : c.invalid) {
    const std::string message =
        rejectMessageOf([&] { lp = m.priorLogDensity(bad.z.data(), nullptr, g.data(), nullptr); });
    EXPECT_EQ(lp, -INFINITY) << c.declaration << " at z[1] = " << bad.z[0];
    EXPECT_NE(message.find(bad.message), std::string::npos) << c.declaration << ": " << message;
  }
}

TEST(DeclaredChecks, ConstrainedVectorsOfTransformedParameters) {
  expectChecked({"simplex[3] s = z;",
                 {0.2, 0.3, 0.5},
                 {{{0.2, 0.3, 0.6},
                   "the transformed parameter 's' is not a valid simplex: its elements must "
                   "be >= 0 and sum to 1 (within 1e-8)"},
                  {{-0.1, 0.6, 0.5}, "'s' is not a valid simplex"},
                  {{NAN, 0.5, 0.5}, "'s' is not a valid simplex"}}});
  expectChecked({"unit_vector[2] u = z;", {0.6, 0.8}, {{{0.6, 0.7}, "'u' is not a valid unit_vector"}}});
  expectChecked({"ordered[3] o = z;",
                 {-1.0, 0.0, 2.0},
                 {{{0.0, 0.0, 1.0}, "'o' is not a valid ordered: its elements must be strictly increasing"}}});
  expectChecked({"positive_ordered[3] p = z;",
                 {0.0, 0.5, 1.0},
                 {{{-0.1, 0.5, 1.0}, "'p' is not a valid positive_ordered: its first element is negative"},
                  {{0.5, 0.2, 1.0}, "'p' is not a valid positive_ordered: its elements must be strictly increasing"}}});
}

TEST(DeclaredChecks, ConstrainedMatricesOfTransformedParameters) {
  expectChecked({"cholesky_factor_cov[2] L = [[z[1], z[4]], [z[2], z[3]]];",
                 {1.0, 0.5, 2.0, 0.0},
                 {{{1.0, 0.5, -2.0, 0.0}, "'L' is not a valid cholesky_factor_cov: its diagonal must be positive"},
                  {{1.0, 0.5, 2.0, 0.1}, "'L' is not a valid cholesky_factor_cov: it must be lower triangular"}}});
  expectChecked(
      {"cholesky_factor_cov[3, 2] L = [[z[1], 0], [z[2], z[3]], [z[4], z[5]]];",
       {1.0, 0.5, 2.0, -3.0, 4.0},
       {{{1.0, 0.5, 0.0, -3.0, 4.0}, "'L' is not a valid cholesky_factor_cov: its diagonal must be positive"}}});
  expectChecked({"cholesky_factor_corr[2] L = [[1, 0], [z[1], z[2]]];",
                 {0.6, 0.8},
                 {{{0.6, 0.7}, "'L' is not a valid cholesky_factor_corr: each row's squared elements must sum to 1"}}});
  expectChecked({"cov_matrix[2] S = [[z[1], z[2]], [z[3], z[4]]];",
                 {2.0, 1.0, 1.0, 2.0},
                 {{{2.0, 1.0, 1.1, 2.0}, "'S' is not a valid cov_matrix: it must be symmetric (within 1e-8)"},
                  {{1.0, 2.0, 2.0, 1.0}, "'S' is not a valid cov_matrix: it must be positive definite"},
                  {{NAN, 0.0, 0.0, 1.0}, "'S' is not a valid cov_matrix: it must be positive definite"}}});
  expectChecked({"corr_matrix[2] R = [[z[1], z[2]], [z[2], z[3]]];",
                 {1.0, 0.5, 1.0},
                 {{{1.1, 0.5, 1.0}, "'R' is not a valid corr_matrix: its diagonal must be 1 (within 1e-8)"},
                  {{1.0, 1.5, 1.0}, "'R' is not a valid corr_matrix: it must be positive definite"}}});
}

// Arrays are checked element by element, and the message names the element.
TEST(DeclaredChecks, ArraysOfTransformedParametersAreCheckedPerElement) {
  expectChecked({"array[2] simplex[2] s = {z[1:2], z[3:4]};",
                 {0.3, 0.7, 0.4, 0.6},
                 {{{0.3, 0.7, 0.4, 0.7}, "'s[2]' is not a valid simplex"}}});
  expectChecked({"array[2, 2] real<lower=0> y = {{z[1], z[2]}, {z[3], z[4]}};",
                 {1.0, 1.0, 1.0, 1.0},
                 {{{1.0, 1.0, 1.0, -1.0}, "'y[2, 2]' is below its lower bound (lower=0)"},
                  {{1.0, NAN, 1.0, 1.0}, "'y[1, 2]' is below its lower bound (lower=0)"}}});
  expectChecked({"array[2] vector<upper=1>[2] y = {z[1:2], z[3:4]};",
                 {0.0, 0.0, 0.0, 0.0},
                 {{{0.0, 0.0, 0.0, 2.0}, "'y[2]' is above its upper bound (upper=1)"}}});
  expectChecked({"array[2] matrix<lower=-1, upper=1>[1, 2] y = {[[z[1], z[2]]], [[z[3], z[4]]]};",
                 {0.0, 0.0, 0.0, 0.0},
                 {{{0.0, -1.5, 0.0, 0.0}, "'y[1]' is below its lower bound (lower=-1)"}}});
}

// A bound may be an array like the variable (each element against its own bound) or a scalar.
TEST(DeclaredChecks, ArrayBoundsAreReadElementByElement) {
  Compiled c = compileModel(R"(
data { array[2] real L; real U; }
parameters { array[2] real a; }
transformed parameters { array[2] real<lower=L, upper=U> b = a; }
model { a ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(c.front.diags->warningCount(), 0u) << c.errors;
  DataBlock data;
  data.addReals({0.0, 1.0}).addReal(3.0);
  CompiledModel m(c.jit->code(), c.lowered->info, data, {});
  std::string printed;
  auto lp = [&](std::vector<double> z) {
    double v = 0;
    printed = rejectMessageOf([&] { v = m.priorLogDensity(z.data(), nullptr, nullptr, nullptr); });
    return v;
  };
  EXPECT_NEAR(lp({0.5, 1.5}), normalLpdf(0.5, 0, 1) + normalLpdf(1.5, 0, 1), 1e-12);
  EXPECT_EQ(lp({0.5, 0.5}), -INFINITY);  // b[2] = 0.5 < L[2] = 1, though above L[1]
  EXPECT_NE(printed.find("'b[2]' is below its lower bound (lower=L)"), std::string::npos) << printed;
  EXPECT_EQ(lp({-0.5, 1.5}), -INFINITY);
  EXPECT_NE(printed.find("'b[1]' is below its lower bound (lower=L)"), std::string::npos) << printed;
  EXPECT_EQ(lp({0.5, 3.5}), -INFINITY);
  EXPECT_NE(printed.find("'b[2]' is above its upper bound (upper=U)"), std::string::npos) << printed;
}

// A generated quantity that fails its constrained type stops the output with the reason.
TEST(DeclaredChecks, ConstrainedGeneratedQuantitiesStopTheOutput) {
  Compiled c = compileModel(R"(
parameters { real mu; }
model { mu ~ normal(0, 1); }
generated quantities {
  simplex[2] p = [inv_logit(mu), 1 - inv_logit(mu)]';
  cov_matrix[2] S = [[1, mu], [mu, 1]];
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(c.front.diags->warningCount(), 0u) << c.errors;
  CompiledModel m(c.jit->code(), c.lowered->info, DataBlock{}, {});
  pvi_rng rng;
  pvi_rng_seed(&rng, 1, 0);
  const double inside = 0.5, outside = 1.5;
  const std::vector<double> out = m.generateShared(&inside, nullptr, rng);
  ASSERT_GE(out.size(), 2u);
  EXPECT_NEAR(out[0] + out[1], 1.0, 1e-15);
  const std::string message = errorOf<ModelEvaluationError>([&] { m.generateShared(&outside, nullptr, rng); });
  EXPECT_NE(message.find("the generated quantities called reject: the generated quantity 'S' is not a valid "
                         "cov_matrix: it must be positive definite"),
            std::string::npos)
      << message;
}

// A Cholesky factor with more columns than rows is refused where its sizes come from data.
TEST(DeclaredChecks, CholeskyFactorsWithMoreColumnsThanRowsAreRefused) {
  Compiled c = compileModel(R"(
data { int M; int N; }
transformed data { cholesky_factor_cov[M, N] B = rep_matrix(0, M, N); }
parameters { real mu; }
model { mu ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock wide;
  wide.addInt(2).addInt(3);
  const std::string message = errorOf<DataError>([&] { CompiledModel(c.jit->code(), c.lowered->info, wide, {}); });
  EXPECT_NE(message.find("the transformed data 'B' is not a valid cholesky_factor_cov: it must have at least as many "
                         "rows as columns"),
            std::string::npos)
      << message;
}

// Transformed data that fail their constrained type stop the binding, with the reason.
TEST(DeclaredChecks, ConstrainedTransformedDataStopTheBinding) {
  Compiled c = compileModel(R"(
data { real r; }
transformed data { corr_matrix[2] R = [[1, r], [r, 1]]; }
parameters { vector[2] y; }
model { y ~ multi_normal(rep_vector(0, 2), R); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(c.front.diags->warningCount(), 0u) << c.errors;
  DataBlock valid, invalid;
  valid.addReal(0.5);
  invalid.addReal(1.5);
  EXPECT_NO_THROW(CompiledModel(c.jit->code(), c.lowered->info, valid, {}));
  const std::string message = errorOf<DataError>([&] { CompiledModel(c.jit->code(), c.lowered->info, invalid, {}); });
  EXPECT_NE(message.find("the transformed data block called reject: the transformed data 'R' is not a valid "
                         "corr_matrix: it must be positive definite"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace pvi::test
