// Evaluating a factor allocates nothing on the heap after the first call: the generated code
// works in a caller-provided workspace, which CompiledModel sizes once per thread.
#include <gtest/gtest.h>
#include <malloc.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

#include "model_harness.hpp"

// Every allocation function the code under test could reach is replaced in this test program
// and counted: the eight replaceable operator new (plain, array, nothrow, aligned and their
// combinations) and, by ELF symbol interposition (the technique the glibc manual documents for
// replacing malloc), malloc, calloc, realloc, aligned_alloc, memalign, posix_memalign, valloc and
// pvalloc. The C functions forward to glibc's own allocator (__libc_malloc and friends, which
// glibc exports for this purpose), so memory from any of them can be freed by any free(), and
// operator new allocates through the same __libc_* functions, so one allocation counts once.
// Not under a sanitizer, whose runtime intercepts malloc itself: there only operator new is
// hooked. AllocationHooks.EveryHookedPathIsCounted checks that the hooks count.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_MEMORY__)
#define PVI_HOOK_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PVI_HOOK_MALLOC 0
#endif
#endif
#ifndef PVI_HOOK_MALLOC
#define PVI_HOOK_MALLOC 1
#endif

namespace {

enum Path : int {
  kNew,
  kNewArray,
  kNewNothrow,
  kNewArrayNothrow,
  kNewAligned,
  kNewArrayAligned,
  kNewAlignedNothrow,
  kNewArrayAlignedNothrow,
  kMalloc,
  kCalloc,
  kRealloc,
  kAlignedAlloc,
  kMemalign,
  kPosixMemalign,
  kValloc,
  kPvalloc,
  kPaths
};

// Constant-initialised, so counting works before main() and in static constructors.
std::atomic<long> allocations{0};             // every hooked allocation
std::array<std::atomic<long>, kPaths> byPath{};  // per allocation function

inline void count(Path p) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  byPath[p].fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

extern "C" {
void* __libc_malloc(std::size_t) noexcept;
void* __libc_calloc(std::size_t, std::size_t) noexcept;
void* __libc_realloc(void*, std::size_t) noexcept;
void* __libc_memalign(std::size_t, std::size_t) noexcept;
void* __libc_valloc(std::size_t) noexcept;
void* __libc_pvalloc(std::size_t) noexcept;
void __libc_free(void*) noexcept;
}

namespace {

void* rawAlloc(std::size_t n) { return __libc_malloc(n == 0 ? 1 : n); }
void* rawAlignedAlloc(std::size_t n, std::align_val_t al) {
  return __libc_memalign(static_cast<std::size_t>(al), n == 0 ? 1 : n);
}
void* orThrow(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

#if PVI_HOOK_MALLOC
extern "C" {
void* malloc(std::size_t n) noexcept {
  count(kMalloc);
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) noexcept {
  count(kCalloc);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) noexcept {
  count(kRealloc);
  return __libc_realloc(p, n);
}
void free(void* p) noexcept { __libc_free(p); }
void* aligned_alloc(std::size_t al, std::size_t n) noexcept {
  count(kAlignedAlloc);
  return __libc_memalign(al, n);
}
void* memalign(std::size_t al, std::size_t n) noexcept {
  count(kMemalign);
  return __libc_memalign(al, n);
}
int posix_memalign(void** out, std::size_t al, std::size_t n) noexcept {
  count(kPosixMemalign);
  if (al % sizeof(void*) != 0 || (al & (al - 1)) != 0 || al == 0) return EINVAL;
  void* p = __libc_memalign(al, n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(std::size_t n) noexcept {
  count(kValloc);
  return __libc_valloc(n);
}
void* pvalloc(std::size_t n) noexcept {
  count(kPvalloc);
  return __libc_pvalloc(n);
}
}
#endif

void* operator new(std::size_t n) {
  count(kNew);
  return orThrow(rawAlloc(n));
}
void* operator new[](std::size_t n) {
  count(kNewArray);
  return orThrow(rawAlloc(n));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  count(kNewNothrow);
  return rawAlloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  count(kNewArrayNothrow);
  return rawAlloc(n);
}
void* operator new(std::size_t n, std::align_val_t al) {
  count(kNewAligned);
  return orThrow(rawAlignedAlloc(n, al));
}
void* operator new[](std::size_t n, std::align_val_t al) {
  count(kNewArrayAligned);
  return orThrow(rawAlignedAlloc(n, al));
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  count(kNewAlignedNothrow);
  return rawAlignedAlloc(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  count(kNewArrayAlignedNothrow);
  return rawAlignedAlloc(n, al);
}
void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }

namespace pvi::test {
namespace {

// The hooks count: one allocation through each hooked function raises its counter and the total
// by exactly one. The pointers go through a volatile variable, so that the compiler cannot elide
// an allocation it sees freed unused. Without this test, a hook that stopped being called (a
// missing overload, a link change that binds malloc elsewhere) would let the tests above pass
// whatever the generated code allocates.
void* volatile sink = nullptr;

template <class Allocate, class Release>
void expectCounted(Path path, const char* what, Allocate allocate, Release release) {
  const long total = allocations.load(), own = byPath[path].load();
  sink = allocate();
  const long totalAfter = allocations.load(), ownAfter = byPath[path].load();
  ASSERT_NE(sink, nullptr) << what;
  release(sink);
  sink = nullptr;
  EXPECT_EQ(ownAfter - own, 1) << what << " is not counted by its own hook";
  EXPECT_EQ(totalAfter - total, 1) << what << " is not counted once in the total";
}

TEST(AllocationHooks, EveryHookedPathIsCounted) {
  constexpr auto al = std::align_val_t{64};
  expectCounted(kNew, "operator new", [] { return ::operator new(24); }, [](void* p) { ::operator delete(p); });
  expectCounted(kNewArray, "operator new[]", [] { return ::operator new[](24); },
                [](void* p) { ::operator delete[](p); });
  expectCounted(kNewNothrow, "operator new(nothrow)", [] { return ::operator new(24, std::nothrow); },
                [](void* p) { ::operator delete(p, std::nothrow); });
  expectCounted(kNewArrayNothrow, "operator new[](nothrow)", [] { return ::operator new[](24, std::nothrow); },
                [](void* p) { ::operator delete[](p, std::nothrow); });
  expectCounted(kNewAligned, "operator new(align)", [&] { return ::operator new(24, al); },
                [&](void* p) { ::operator delete(p, al); });
  expectCounted(kNewArrayAligned, "operator new[](align)", [&] { return ::operator new[](24, al); },
                [&](void* p) { ::operator delete[](p, al); });
  expectCounted(kNewAlignedNothrow, "operator new(align, nothrow)",
                [&] { return ::operator new(24, al, std::nothrow); },
                [&](void* p) { ::operator delete(p, al, std::nothrow); });
  expectCounted(kNewArrayAlignedNothrow, "operator new[](align, nothrow)",
                [&] { return ::operator new[](24, al, std::nothrow); },
                [&](void* p) { ::operator delete[](p, al, std::nothrow); });
  // New-expressions, including an over-aligned type, reach the same hooks.
  struct alignas(64) Wide {
    double x[8];
  };
  expectCounted(kNew, "new double", [] { return static_cast<void*>(new double(1)); },
                [](void* p) { delete static_cast<double*>(p); });
  expectCounted(kNewArrayAligned, "new Wide[2]", [] { return static_cast<void*>(new Wide[2]); },
                [](void* p) { delete[] static_cast<Wide*>(p); });
  // An allocation made inside libstdc++.so (std::runtime_error copies its message there).
  {
    const long before = byPath[kNew].load();
    std::runtime_error e(std::string(200, 'x'));
    EXPECT_GE(byPath[kNew].load() - before, 1) << "operator new called from libstdc++ is not counted";
    EXPECT_EQ(std::strlen(e.what()), 200u);
  }
#if PVI_HOOK_MALLOC
  expectCounted(kMalloc, "malloc", [] { return std::malloc(24); }, [](void* p) { std::free(p); });
  expectCounted(kCalloc, "calloc", [] { return std::calloc(3, 8); }, [](void* p) { std::free(p); });
  expectCounted(kRealloc, "realloc(nullptr)", [] { return std::realloc(nullptr, 24); }, [](void* p) { std::free(p); });
  expectCounted(kAlignedAlloc, "aligned_alloc", [] { return std::aligned_alloc(64, 128); },
                [](void* p) { std::free(p); });
  expectCounted(kMemalign, "memalign", [] { return ::memalign(64, 24); }, [](void* p) { std::free(p); });
  expectCounted(kPosixMemalign, "posix_memalign", [] {
    void* p = nullptr;
    return ::posix_memalign(&p, 64, 24) == 0 ? p : nullptr;
  }, [](void* p) { std::free(p); });
  expectCounted(kValloc, "valloc", [] { return ::valloc(24); }, [](void* p) { std::free(p); });
  expectCounted(kPvalloc, "pvalloc", [] { return ::pvalloc(24); }, [](void* p) { std::free(p); });
  {  // realloc of a live block counts too (it may move the block)
    void* p = std::malloc(8);
    const long before = byPath[kRealloc].load();
    sink = std::realloc(p, 4096);
    EXPECT_EQ(byPath[kRealloc].load() - before, 1) << "realloc of a live block is not counted";
    std::free(sink);
    sink = nullptr;
  }
  // A malloc made inside libc.so (strdup allocates there), which only interposition catches.
  {
    const long before = byPath[kMalloc].load();
    char* copy = ::strdup("counted");
    EXPECT_EQ(byPath[kMalloc].load() - before, 1) << "malloc called from inside libc is not counted";
    std::free(copy);
  }
#endif
}

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

// The prior factor at z = (at, ..., at), with and without its gradient: after one call of each,
// 20 more allocate nothing, and the values are finite.
void expectPriorAllocatesOnlyOnce(const CompiledModel& model, double at, int64_t K) {
  std::vector<double> z(model.globalDim(), at), gz(z.size());
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

// The multivariate normals use a dense workspace of 2k^2 + 3k doubles (multi_normal) or 2k
// (multi_normal_cholesky): on the stack while it fits Scratch's inline buffer, beyond that a
// per-thread buffer that grows on the first call only.
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
    expectPriorAllocatesOnlyOnce(CompiledModel(c.jit->code(), c.lowered->schema, shared, {}), 0.2, K);
  }
}

// eigenvalues_sym and eigenvectors_sym work in a Scratch buffer (linalg/eigen_sym.cpp).
TEST(Allocation, EigendecompositionAfterTheFirstCall) {
  Compiled c = compileModel(R"(
data { int K; matrix[K, K] B; }
global { vector[K] s; }
model {
  matrix[K, K] S = B + diag_matrix(s);
  target += -sum(eigenvalues_sym(S)) + sum(eigenvectors_sym(S));
  s ~ normal(0, 1);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  for (int64_t K : {3, 20}) {
    std::vector<double> B(static_cast<size_t>(K * K), 0.0);  // symmetric, tridiagonal
    for (int64_t i = 0; i < K; ++i) {
      B[static_cast<size_t>(i + i * K)] = static_cast<double>(i);
      if (i + 1 < K) B[static_cast<size_t>(i + 1 + i * K)] = B[static_cast<size_t>(i + (i + 1) * K)] = 0.3;
    }
    DataBlock shared;
    shared.addInt(K).addReals(B);
    expectPriorAllocatesOnlyOnce(CompiledModel(c.jit->code(), c.lowered->schema, shared, {}), 0.1, K);
  }
}

// The ODE solver keeps its state, its system's workspace and the sensitivities for the gradient
// in per-thread buffers that only grow (stdlib/kernels/ode/integrate_ode.cpp).
TEST(Allocation, OdeSolveAfterTheFirstCall) {
  Compiled c = compileModel(R"(
functions {
  array[] real decay(real t, array[] real y, array[] real theta, array[] real x_r, array[] int x_i) {
    return {-theta[1] * y[1] + y[2], -theta[2] * y[2]};
  }
}
data { int K; array[K] real ts; }
global { array[2] real y0; array[2] real<lower=0> k; }
model {
  array[K, 2] real y = integrate_ode_rk45(decay, y0, 0, ts, k, rep_array(0.0, 0), rep_array(0, 0));
  target += -dot_self(to_vector(y[:, 1]));
  y0 ~ normal(1, 1);
  k ~ lognormal(0, 1);
}
)");
  ASSERT_TRUE(c.jit) << c.errors;
  for (int64_t K : {3, 12}) {
    DataBlock shared;
    std::vector<double> ts;
    for (int64_t t = 1; t <= K; ++t) ts.push_back(0.5 * static_cast<double>(t));
    shared.addInt(K).addReals(ts);
    expectPriorAllocatesOnlyOnce(CompiledModel(c.jit->code(), c.lowered->schema, shared, {}), 0.2, K);
  }
}

}  // namespace
}  // namespace pvi::test
