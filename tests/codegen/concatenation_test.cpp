// append_row, append_col, cumulative_sum, diag_pre_multiply, diag_post_multiply, quad_form_diag,
// gp_exp_quad_cov, cholesky_decompose, diag_matrix, identity_matrix, rep_matrix of a vector, rep_array and the
// indexing functions (sub_col, sub_row, segment, head, tail) in generated code: each model equals the same model
// written with literals and indexing (value and gradient), and its gradients match finite
// differences. Covers reals with vectors, vectors with vectors, row_vectors and matrices stacked
// by rows, and vectors and matrices side by side.
#include <gtest/gtest.h>

#include <cmath>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

struct ConcatCase {
  const char* name;
  const char* withFunction;
  const char* written;
};

const ConcatCase kConcatCases[] = {
    {"real_and_vector", "target += dot_product(append_row(alpha, beta), w4) + dot_product(append_row(beta, alpha), w4);",
     "target += dot_product([alpha, beta[1], beta[2], beta[3]]', w4) + dot_product([beta[1], beta[2], beta[3], alpha]', w4);"},
    {"vector_and_vector", "target += -dot_self(append_row(beta, exp(beta)));",
     "target += -dot_self([beta[1], beta[2], beta[3], exp(beta[1]), exp(beta[2]), exp(beta[3])]');"},
    {"rows_of_a_matrix", "target += sum(append_row(X, beta') .* append_row(beta', X));",
     "target += sum([X[1], X[2], beta'] .* [beta', X[1], X[2]]);"},
    {"columns_of_a_matrix", "target += sum(append_col(X', beta) .* append_col(beta, X'));",
     "target += sum([[X[1, 1], X[2, 1], beta[1]], [X[1, 2], X[2, 2], beta[2]], [X[1, 3], X[2, 3], beta[3]]]"
     " .* [[beta[1], X[1, 1], X[2, 1]], [beta[2], X[1, 2], X[2, 2]], [beta[3], X[1, 3], X[2, 3]]]);"},
    {"row_vectors", "target += dot_product(append_col(beta', alpha), w4') + dot_product(append_col(alpha, beta'), w4');",
     "target += dot_product([beta[1], beta[2], beta[3], alpha], w4') + dot_product([alpha, beta[1], beta[2], beta[3]], w4');"},
    {"cumulative_sum", "target += dot_product(cumulative_sum(exp(beta)), w4[1:3]) + sum(cumulative_sum(beta'));",
     "target += dot_product([exp(beta[1]), exp(beta[1]) + exp(beta[2]), exp(beta[1]) + exp(beta[2]) + exp(beta[3])]', w4[1:3])"
     " + 3 * beta[1] + 2 * beta[2] + beta[3];"},
    // X is 2 x 3; beta has 3 elements.
    {"diag_post_multiply", "target += sum(diag_post_multiply(X, exp(beta)) .* X) + sum(diag_post_multiply(X, beta'));",
     "target += sum([[X[1, 1] * exp(beta[1]), X[1, 2] * exp(beta[2]), X[1, 3] * exp(beta[3])],"
     " [X[2, 1] * exp(beta[1]), X[2, 2] * exp(beta[2]), X[2, 3] * exp(beta[3])]] .* X)"
     " + (X[1, 1] + X[2, 1]) * beta[1] + (X[1, 2] + X[2, 2]) * beta[2] + (X[1, 3] + X[2, 3]) * beta[3];"},
    {"diag_pre_multiply", "target += sum(diag_pre_multiply(exp(beta), X') .* X') + sum(diag_pre_multiply(beta', X'));",
     "target += sum([[X[1, 1] * exp(beta[1]), X[2, 1] * exp(beta[1])], [X[1, 2] * exp(beta[2]), X[2, 2] * exp(beta[2])],"
     " [X[1, 3] * exp(beta[3]), X[2, 3] * exp(beta[3])]] .* X')"
     " + (X[1, 1] + X[2, 1]) * beta[1] + (X[1, 2] + X[2, 2]) * beta[2] + (X[1, 3] + X[2, 3]) * beta[3];"},
    // X * X' is 2 x 2: its element (i, j) times v[i] v[j], with v = exp(beta[1:2]).
    {"quad_form_diag", "target += sum(quad_form_diag(X * X', exp(beta[1:2])) .* (X * X'));",
     "target += exp(2 * beta[1]) * square(dot_self(X[1])) + exp(2 * beta[2]) * square(dot_self(X[2]))"
     " + 2 * exp(beta[1] + beta[2]) * square(dot_product(X[1], X[2]));"},
    {"gp_exp_quad_cov", "target += sum(gp_exp_quad_cov(w4, exp(alpha), exp(beta[1])) .* (w4 * w4'));",
     "for (i in 1:4) for (j in 1:4)"
     " target += square(exp(alpha)) * exp(-square(w4[i] - w4[j]) / (2 * square(exp(beta[1])))) * w4[i] * w4[j];"},
    {"gp_exp_quad_cov_between_two_sets", "target += sum(gp_exp_quad_cov(w4, X[1], exp(alpha), exp(beta[2])));",
     "for (i in 1:4) for (j in 1:3)"
     " target += square(exp(alpha)) * exp(-square(w4[i] - X[1, j]) / (2 * square(exp(beta[2]))));"},
    // A Gaussian process: the Cholesky route equals the covariance route.
    {"cholesky_decompose",
     "target += multi_normal_cholesky_lpdf(w4 | rep_vector(0, 4), cholesky_decompose(gp_exp_quad_cov(w4, exp(alpha),"
     " exp(beta[1])) + diag_matrix(rep_vector(exp(beta[2]), 4)) + 0.1 * identity_matrix(4)));",
     "target += multi_normal_lpdf(w4 | rep_vector(0, 4), gp_exp_quad_cov(w4, exp(alpha), exp(beta[1]))"
     " + diag_matrix(rep_vector(exp(beta[2]), 4)) + 0.1 * identity_matrix(4));"},
    {"indexing_functions",
     "target += sum(sub_col(X, 1, 2, 2)) + sum(sub_row(X, 2, 2, 2)) + dot_product(segment(beta, 2, 2), head(w4, 2))"
     " + dot_product(tail(beta, 2), tail(w4, 2));",
     "target += X[1, 2] + X[2, 2] + X[2, 2] + X[2, 3] + beta[2] * w4[1] + beta[3] * w4[2]"
     " + beta[2] * w4[3] + beta[3] * w4[4];"},
    {"rep_matrix_of_vectors", "target += sum(rep_matrix(beta, 2) .* X') + sum(rep_matrix(exp(beta'), 2) .* X);",
     "target += sum(X[1] .* beta') + sum(X[2] .* beta') + sum(X[1] .* exp(beta')) + sum(X[2] .* exp(beta'));"},
    {"elementwise_operators_on_reals", "target += alpha .* beta[1] + alpha ./ exp(beta[2]) + 2 .* alpha;",
     "target += alpha * beta[1] + alpha / exp(beta[2]) + 2 * alpha;"},
    {"rep_array",
     "{ array[3] real r = rep_array(alpha, 3); array[2, 3] real r2 = rep_array(alpha * 2, 2, 3);"
     " array[2] vector[3] rv = rep_array(beta * alpha, 2); array[4] int sevens = rep_array(7, 4);"
     " array[4] int z; z = rep_array(2, 4);"
     " target += normal_lpdf(r | 0, 1) + normal_lpdf(r2[2] | 1, 2) + normal_lpdf(rv[1] | w4[1:3], 3)"
     " + normal_lpdf(rv[2] | 0, 1) + (sum(sevens) + sum(z)) * alpha; }",
     "target += normal_lpdf({alpha, alpha, alpha} | 0, 1) + normal_lpdf({alpha * 2, alpha * 2, alpha * 2} | 1, 2)"
     " + normal_lpdf(beta * alpha | w4[1:3], 3) + normal_lpdf(beta * alpha | 0, 1) + 36 * alpha;"},
};

std::string concatModel(const char* statement) {
  return std::string(R"(
data { matrix[2, 3] X; vector[4] w4; }
parameters { real alpha; vector[3] beta; }
model {
  alpha ~ normal(0, 1);
  beta ~ normal(0, 1);
  )") + statement + "\n}\n";
}

class Concatenation : public ::testing::TestWithParam<ConcatCase> {};

TEST_P(Concatenation, EqualsTheModelWrittenOut) {
  const ConcatCase& c = GetParam();
  Compiled a = compileModel(concatModel(c.withFunction));
  Compiled b = compileModel(concatModel(c.written));
  ASSERT_TRUE(a.jit) << a.errors;
  ASSERT_TRUE(b.jit) << b.errors;
  std::mt19937_64 rng(29);
  DataBlock shared;
  shared.addReals(randomVector(6, rng, 1.0)).addReals(randomVector(4, rng, 1.0));
  CompiledModel ma(a.jit->code(), a.lowered->info, shared, {});
  CompiledModel mb(b.jit->code(), b.lowered->info, shared, {});
  expectSamePriorFactor(ma, mb, rng, 3, 0.8);
  checkGradients(ma, rng);
}

INSTANTIATE_TEST_SUITE_P(Cases, Concatenation, ::testing::ValuesIn(kConcatCases),
                         [](const ::testing::TestParamInfo<ConcatCase>& i) { return std::string(i.param.name); });

TEST(ConcatenationSizes, ColumnsMustAgreeToStackRows) {
  Compiled c = compileModel(R"(
data { matrix[2, 3] X; }
parameters { vector[2] beta; }
model { beta ~ normal(0, 1); target += sum(append_row(X, beta')); }
)");
  EXPECT_FALSE(c.jit);
  EXPECT_NE(c.errors.find("the columns of the arguments of 'append_row' differ"), std::string::npos) << c.errors;
}

}  // namespace
}  // namespace pvi::test
