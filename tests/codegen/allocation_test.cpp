// Evaluating a factor allocates nothing on the heap after the first call: the generated code
// works in a caller-provided workspace, which CompiledModel sizes once per thread.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

#include "model_harness.hpp"

namespace {
std::atomic<long> allocations{0};
}

// Counts every allocation made through operator new in this test program.
void* operator new(std::size_t n) {
  ++allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace pvi::test {
namespace {

TEST(Allocation, NoHeapAllocationAfterTheFirstCall) {
  Compiled c = compileModel(readExample("six_cities"));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(5);
  GeneratedData data = randomData(*c.front.checked, 2, rng);
  CompiledModel m(c.jit->code(), c.lowered->schema, data.shared, data.partitions);
  std::vector<double> z(m.globalDim(), 0.1), gz(z.size());
  std::vector<double> w(m.localDim(0), -0.2), gw(w.size());
  // First calls: the per-thread workspace grows to what the factors need.
  m.priorLogDensity(z.data(), nullptr, gz.data(), nullptr);
  m.partitionLogDensity(0, z.data(), w.data(), nullptr, gz.data(), gw.data(), nullptr);
  m.partitionLogDensity(0, z.data(), w.data(), nullptr, nullptr, nullptr, nullptr);
  long before = allocations.load();
  double sum = 0;
  for (int k = 0; k < 100; ++k) {
    sum += m.priorLogDensity(z.data(), nullptr, gz.data(), nullptr);
    sum += m.partitionLogDensity(0, z.data(), w.data(), nullptr, gz.data(), gw.data(), nullptr);
    sum += m.partitionLogDensity(0, z.data(), w.data(), nullptr, nullptr, nullptr, nullptr);
  }
  EXPECT_EQ(allocations.load(), before);
  EXPECT_TRUE(std::isfinite(sum));
}

// The multivariate normals use a dense workspace of k^2 + 2k doubles: on the stack up to k = 16,
// beyond that a per-thread buffer that grows on the first call only.
TEST(Allocation, MultiNormalAboveSixteenDimensions) {
  Compiled c = compileModel(R"(
data { int K; vector[K] m; matrix[K, K] S; matrix[K, K] L; }
global { vector[K] x; vector[K] y; }
model {
  x ~ multi_normal(m, S);
  y ~ multi_normal_cholesky(x, L);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  for (int64_t K : {17, 40}) {
    std::vector<double> m(static_cast<size_t>(K), 0.1), S(static_cast<size_t>(K * K), 0.0), L = S;
    for (int64_t i = 0; i < K; ++i) {
      S[static_cast<size_t>(i + i * K)] = 2.0;
      L[static_cast<size_t>(i + i * K)] = 1.5;
      if (i + 1 < K) {
        S[static_cast<size_t>(i + 1 + i * K)] = S[static_cast<size_t>(i + (i + 1) * K)] = 0.5;
        L[static_cast<size_t>(i + 1 + i * K)] = 0.3;
      }
    }
    DataBlock shared;
    shared.addInt(K).addReals(m).addReals(S).addReals(L);
    CompiledModel model(c.jit->code(), c.lowered->schema, shared, {});
    std::vector<double> z(model.globalDim(), 0.2), gz(z.size());
    model.priorLogDensity(z.data(), nullptr, gz.data(), nullptr);
    model.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    long before = allocations.load();
    double sum = 0;
    for (int k = 0; k < 20; ++k) {
      sum += model.priorLogDensity(z.data(), nullptr, gz.data(), nullptr);
      sum += model.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    }
    EXPECT_EQ(allocations.load(), before) << "K = " << K;
    EXPECT_TRUE(std::isfinite(sum));
  }
}

}  // namespace
}  // namespace pvi::test
