// Size equalities the checker cannot decide at compile time (N against M) are checked when data
// are bound: the data checks refuse mismatched sizes with a message naming the expression, the
// operation and both sizes (and the partition), instead of running out of bounds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model_harness.hpp"
#include "runtime/model/ModelInfo.hpp"

namespace pvi::test {
namespace {

std::string bind(const Compiled& c, DataBlock shared, std::vector<DataBlock> parts = {},
                 std::vector<std::string> labels = {}) {
  try {
    CompiledModel m(c.jit->code(), c.lowered->schema, std::move(shared), std::move(parts), std::move(labels));
  } catch (const DataError& e) {
    return e.what();
  }
  return "accepted";
}

DataBlock matrices(int64_t N, int64_t M) {
  DataBlock b;
  b.addInt(N).addInt(M);
  b.addReals(std::vector<double>(static_cast<size_t>(N * M), 1.0));
  b.addReals(std::vector<double>(static_cast<size_t>(M * N), 2.0));
  return b;
}

TEST(SizeChecks, ElementwiseOperandsOfDataSizes) {
  Compiled c = compileModel(R"(data { int N; int M; matrix[N, M] A; matrix[M, N] B; }
global { real mu; }
model { mu ~ normal(0, 1); target += sum(A ./ B); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  EXPECT_EQ(bind(c, matrices(3, 3)), "accepted");
  EXPECT_EQ(bind(c, matrices(3, 200)),
            "data: sizes that must be equal differ: N = 3 but M = 200 (row counts of the operands of './' differ) "
            "in 'A ./ B' at 3:42");
  EXPECT_NE(bind(c, matrices(0, 1)).find("N = 0 but M = 1"), std::string::npos);
  ASSERT_EQ(c.lowered->schema.sizeChecks.size(), 2u);
  EXPECT_FALSE(c.lowered->schema.sizeChecks[0].partition);
}

TEST(SizeChecks, AcceptedDataEvaluate) {
  Compiled c = compileModel(R"(data { int N; int M; matrix[N, M] A; matrix[M, N] B; }
global { real mu; }
model { target += sum(A ./ B) * mu; }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  CompiledModel m(c.jit->code(), c.lowered->schema, matrices(2, 2), {});
  std::vector<double> z{1.0};
  EXPECT_DOUBLE_EQ(m.priorLogDensity(z.data(), nullptr, nullptr, nullptr), 4 * 0.5);
}

TEST(SizeChecks, PerPartitionSizesAreCheckedForEachPartition) {
  // The example of docs/language.md, "Symbolic sizes".
  Compiled c = compileModel(R"(@partition(silo)
data { int K; }
data per silo { int N; int M; vector[N] y; matrix[M, K] X; }
global { vector[K] beta; }
model {
  beta ~ normal(0, 1);
  y ~ normal(X * beta, 1);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  ASSERT_EQ(c.lowered->schema.sizeChecks.size(), 1u);
  EXPECT_TRUE(c.lowered->schema.sizeChecks[0].partition);
  DataBlock shared;
  shared.addInt(1);
  auto silo = [](int64_t N, int64_t M) {
    DataBlock b;
    b.addInt(N).addInt(M).addReals(std::vector<double>(static_cast<size_t>(N), 0.0));
    b.addReals(std::vector<double>(static_cast<size_t>(M), 1.0));
    return b;
  };
  EXPECT_EQ(bind(c, shared, {silo(2, 2), silo(4, 4)}, {"north", "south"}), "accepted");
  EXPECT_EQ(bind(c, shared, {silo(2, 2), silo(2, 3)}, {"north", "south"}),
            "data per silo south: sizes that must be equal differ: N = 2 but M = 3 (sizes of the arguments of "
            "'normal' differ) in 'y ~ normal(X * beta, 1);' at 7:7");
}

TEST(SizeChecks, SharedSizesInAPartitionedModelAndComputedSizes) {
  Compiled c = compileModel(R"(@partition(g)
data { int N; int K; vector[N + 1] a; vector[K] b; }
data per g { int n; vector[n] y; }
global { real mu; }
model { mu ~ normal(sum(a + b), 1); y ~ normal(mu, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  ASSERT_EQ(c.lowered->schema.sizeChecks.size(), 1u);
  EXPECT_FALSE(c.lowered->schema.sizeChecks[0].partition);
  auto shared = [](int64_t N, int64_t K) {
    DataBlock b;
    b.addInt(N).addInt(K).addReals(std::vector<double>(static_cast<size_t>(N + 1), 0.0));
    b.addReals(std::vector<double>(static_cast<size_t>(K), 0.0));
    return b;
  };
  DataBlock part;
  part.addInt(1).addReals({0.0});
  EXPECT_EQ(bind(c, shared(2, 3), {part}), "accepted");
  EXPECT_EQ(bind(c, shared(3, 3), {part}),
            "data: sizes that must be equal differ: (N + 1) = 4 but K = 3 (sizes of the operands of '+' differ) "
            "in 'a + b' at 5:25");
}

TEST(SizeChecks, TheModelDescriptionCarriesThem) {
  Compiled c = compileModel(R"(data { int N; int M; vector[N] a; vector[M] b; }
global { real mu; }
model { mu ~ normal(0, 1); target += dot_product(a, b) * mu; }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  ASSERT_EQ(c.lowered->info.data.sizeChecks.size(), 1u);
  ModelInfo back = modelInfoFromJson(toJson(c.lowered->info));
  ASSERT_EQ(back.data.sizeChecks.size(), 1u);
  const SizeCheckInfo& s = back.data.sizeChecks[0];
  EXPECT_EQ(s.a, "N");
  EXPECT_EQ(s.b, "M");
  EXPECT_EQ(s.at, "3:38");
  EXPECT_EQ(s.expr, "dot_product(a, b)");
  EXPECT_FALSE(s.partition);
}

}  // namespace
}  // namespace pvi::test
