// support::forEachIndex: every index is called exactly once, whatever the pool and the count
// (runs of indices per thread), and when calls throw, every call still finishes and the exception
// of the lowest index is the one rethrown.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/support/ThreadPool.hpp"

namespace pvi::test {
namespace {

TEST(ForEachIndex, CallsEveryIndexOnce) {
  for (std::size_t threads : {0u, 1u, 2u, 3u}) {
    std::unique_ptr<support::ThreadPool> pool = threads ? std::make_unique<support::ThreadPool>(threads) : nullptr;
    for (std::size_t n : {0u, 1u, 2u, 7u, 8u, 9u, 100u, 1001u}) {
      std::vector<std::atomic<int>> calls(n);
      support::forEachIndex(pool.get(), n, [&](std::size_t i) { ++calls.at(i); });
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(calls[i].load(), 1) << threads << " threads, n " << n << ", i " << i;
    }
  }
}

TEST(ForEachIndex, RethrowsTheLowestIndexAfterEveryCall) {
  support::ThreadPool pool(2);
  const std::size_t n = 50;
  std::vector<std::atomic<int>> calls(n);
  try {
    support::forEachIndex(&pool, n, [&](std::size_t i) {
      ++calls[i];
      if (i == 13 || i == 17 || i == 41) throw std::runtime_error(std::to_string(i));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "13");
  }
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(calls[i].load(), 1) << i;
}

}  // namespace
}  // namespace pvi::test
