// Type and shape inference: the type the checker infers for an expression, and the size
// equalities it defers to data binding.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace pvi::test {
namespace {

const char* kDeclarations = R"(
data {
  int N;
  int K;
  real x;
  int i;
  vector[N] v;
  vector[K] w;
  row_vector[K] r;
  matrix[N, K] X;
  array[N] int idx;
  array[3, 4] real A;
}
)";

// The inferred type of `expr`, or the first error message.
std::string typeOf(const std::string& expr) {
  std::string text = std::string(kDeclarations) + "model {\n  target += " + expr + ";\n}\n";
  FrontendResult r = check(text);
  if (!r.ok()) return "error: " + r.diags->brief();
  for (const Block& b : r.checked->program.blocks)
    if (b.kind == BlockKind::Model) return toString(b.stmts[0]->exprs[0]->type);
  return "no model block";
}

TEST(Types, Scalars) {
  EXPECT_EQ(typeOf("i + i"), "int");
  EXPECT_EQ(typeOf("i / 2"), "int");
  EXPECT_EQ(typeOf("i % 2"), "int");
  EXPECT_EQ(typeOf("i + x"), "real");
  EXPECT_EQ(typeOf("x ^ 2"), "real");
  EXPECT_EQ(typeOf("-i"), "int");
  EXPECT_EQ(typeOf("i < x"), "int");
  EXPECT_EQ(typeOf("!i || x > 0 && i == 1"), "int");
  EXPECT_EQ(typeOf("x > 0 ? 1 : 2.0"), "real");
  EXPECT_EQ(typeOf("x > 0 ? 1 : 2"), "int");
  EXPECT_EQ(typeOf("1.5e-3"), "real");
}

TEST(Types, LinearAlgebra) {
  EXPECT_EQ(typeOf("X * w"), "vector[N]");
  EXPECT_EQ(typeOf("X'"), "matrix[K, N]");
  EXPECT_EQ(typeOf("r * X'"), "row_vector[N]");
  EXPECT_EQ(typeOf("v'"), "row_vector[N]");
  EXPECT_EQ(typeOf("v' * v"), "real");
  EXPECT_EQ(typeOf("v * v'"), "matrix[N, N]");
  EXPECT_EQ(typeOf("X' * X"), "matrix[K, K]");
  EXPECT_EQ(typeOf("v .* v"), "vector[N]");
  EXPECT_EQ(typeOf("v ./ 2"), "vector[N]");
  EXPECT_EQ(typeOf("1 ./ v"), "vector[N]");
  EXPECT_EQ(typeOf("2 * v + 1"), "vector[N]");
  EXPECT_EQ(typeOf("v / x"), "vector[N]");
  EXPECT_EQ(typeOf("-X"), "matrix[N, K]");
  EXPECT_EQ(typeOf("X .^ 2"), "matrix[N, K]");
}

TEST(Types, Indexing) {
  EXPECT_EQ(typeOf("v[1]"), "real");
  EXPECT_EQ(typeOf("v[idx]"), "vector[N]");
  EXPECT_EQ(typeOf("v[2:5]"), "vector[4]");
  EXPECT_EQ(typeOf("v[:3]"), "vector[3]");
  EXPECT_EQ(typeOf("v[:]"), "vector[N]");
  EXPECT_EQ(typeOf("v[2:]"), "vector[(N - 2 + 1)]");
  EXPECT_EQ(typeOf("r[i]"), "real");
  EXPECT_EQ(typeOf("X[1]"), "row_vector[K]");
  EXPECT_EQ(typeOf("X[1, 2]"), "real");
  EXPECT_EQ(typeOf("X[:, 2]"), "vector[N]");
  EXPECT_EQ(typeOf("X[1, :]"), "row_vector[K]");
  EXPECT_EQ(typeOf("X[idx, 2]"), "vector[N]");
  EXPECT_EQ(typeOf("X[idx]"), "matrix[N, K]");
  EXPECT_EQ(typeOf("X[1:2, 1:3]"), "matrix[2, 3]");
  EXPECT_EQ(typeOf("A[1]"), "array[4] real");
  EXPECT_EQ(typeOf("A[1, 2]"), "real");
  EXPECT_EQ(typeOf("A[:, 2]"), "array[3] real");
  EXPECT_EQ(typeOf("idx[1]"), "int");
  EXPECT_EQ(typeOf("X[1][2]"), "real");
}

TEST(Types, Functions) {
  EXPECT_EQ(typeOf("rep_vector(0, N)"), "vector[N]");
  EXPECT_EQ(typeOf("rep_vector(0, N + 1)"), "vector[(N + 1)]");
  EXPECT_EQ(typeOf("rep_vector(0, 2 * 3)"), "vector[6]");
  EXPECT_EQ(typeOf("rep_matrix(0, N, K)"), "matrix[N, K]");
  EXPECT_EQ(typeOf("rep_matrix(v, K)"), "matrix[N, K]");
  EXPECT_EQ(typeOf("rep_matrix(r, N)"), "matrix[N, K]");
  EXPECT_EQ(typeOf("log_mix(0.3, x, 1)"), "real");
  EXPECT_EQ(typeOf("rep_vector(0, rows(X))"), "vector[N]");
  EXPECT_EQ(typeOf("rep_vector(0, size(idx))"), "vector[N]");
  EXPECT_EQ(typeOf("size(v)"), "int");
  EXPECT_EQ(typeOf("sum(idx)"), "int");
  EXPECT_EQ(typeOf("sum(v)"), "real");
  EXPECT_EQ(typeOf("mean(X)"), "real");
  EXPECT_EQ(typeOf("softmax(v)"), "vector[N]");
  EXPECT_EQ(typeOf("to_vector(X)"), "vector[(N * K)]");
  EXPECT_EQ(typeOf("to_vector(r)"), "vector[K]");
  EXPECT_EQ(typeOf("exp(X)"), "matrix[N, K]");
  EXPECT_EQ(typeOf("exp(i)"), "real");
  EXPECT_EQ(typeOf("abs(i)"), "int");
  EXPECT_EQ(typeOf("log1m_inv_logit(v)"), "vector[N]");
  EXPECT_EQ(typeOf("dot_product(v, v)"), "real");
  EXPECT_EQ(typeOf("log_sum_exp(v)"), "real");
  EXPECT_EQ(typeOf("log_sum_exp(x, 1)"), "real");
  EXPECT_EQ(typeOf("normal_lpdf(v | 0, 1)"), "real");
  EXPECT_EQ(typeOf("std_normal_lpdf(v)"), "real");
  EXPECT_EQ(typeOf("log_sum_exp(X)"), "real");
  EXPECT_EQ(typeOf("poisson_log_lpmf(idx | v)"), "real");
  EXPECT_EQ(typeOf("multi_normal_lpdf(v | v, X * X')"), "real");
}

TEST(Types, DefiniteSizeMismatchIsAnError) {
  EXPECT_EQ(typeOf("rep_vector(0, 3) + rep_vector(0, 4)"),
            "error: 15:13: error: size mismatch: sizes of the operands of '+' differ (3 vs 4)\n");
  EXPECT_EQ(typeOf("rep_matrix(0, 2, 3) * rep_vector(0, 2)"),
            "error: 15:13: error: size mismatch: inner dimensions of '*' differ (3 vs 2)\n");
}

TEST(Types, UndecidableSizesAreDeferredToDataBinding) {
  std::string text = std::string(kDeclarations) + "model {\n  target += sum(X * v);\n  target += sum(v + v);\n}\n";
  FrontendResult r = check(text);
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  ASSERT_EQ(r.checked->sizeChecks.size(), 1u);  // v + v is provably fine
  EXPECT_EQ(r.checked->sizeChecks[0].check.a.text, "K");
  EXPECT_EQ(r.checked->sizeChecks[0].check.b.text, "N");
}

TEST(Types, ReassignedIntsAreNotOneSize) {
  // k changes between the two declarations, so a + b is not known to be well-sized: the
  // check is deferred instead of passing because both sizes are spelt "k".
  FrontendResult r = check(
      "model {\n  int k = 2;\n  vector[k] a = rep_vector(0, k);\n  k = 3;\n  vector[k] b = rep_vector(1, k);\n"
      "  target += sum(a + b);\n}\n");
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  bool deferred = false;
  for (const auto& c : r.checked->sizeChecks)
    if (c.check.a.text == "k@3:10" && c.check.b.text == "k@5:10") deferred = true;
  EXPECT_TRUE(deferred);
}

TEST(Types, NestedIndexOnTheLeftOfAnAssignment) {
  FrontendResult r = check("model {\n  array[2] vector[3] m;\n  m[1][2] = 1;\n  m[2] = rep_vector(0, 3);\n}\n");
  EXPECT_TRUE(r.ok()) << r.diags->brief();
}

TEST(Types, DeclaredTypesOfVariables) {
  FrontendResult r = check(std::string(kDeclarations) + "model { }\n");
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  EXPECT_EQ(toString(r.checked->find("X")->type), "matrix[N, K]");
  EXPECT_EQ(toString(r.checked->find("A")->type), "array[3, 4] real");
  EXPECT_EQ(toString(r.checked->find("idx")->type), "array[N] int");
  EXPECT_EQ(toString(r.checked->find("r")->type), "row_vector[K]");
}

}  // namespace
}  // namespace pvi::test
