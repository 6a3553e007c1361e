// The general subscript kernels (stdlib/kernels/arith/subscript.cpp) against direct loops.
#include <gtest/gtest.h>

#include <vector>

#include "stdlib/kernels/arith/arith.h"

namespace {

// A 3 x 4 x 2 tensor (dims[0] fastest) with element (i, j, k) = 100 i + 10 j + k (0-based).
struct Tensor {
  int64_t dims[3] = {3, 4, 2};
  std::vector<double> v;
  Tensor() {
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 3; ++i) v.push_back(100 * i + 10 * j + k);
  }
};

TEST(SubscriptKernel, SelectsInOrderAndDropsSingleIndices) {
  Tensor t;
  std::vector<int64_t> list = {4, 1, 4};
  const int64_t* lists[3] = {nullptr, list.data(), nullptr};
  // dim 0: range 2..3; dim 1: the list {4, 1, 4}; dim 2: the single index 2.
  int64_t spec[9] = {2, 2, 3, 3, 0, 3, 1, 2, 0};
  std::vector<double> out(6, -1);
  ASSERT_EQ(pvi_subscript(3, t.dims, spec, lists, t.v.data(), out.data()), 0);
  std::vector<double> expected;
  for (int64_t j : list)
    for (int i = 1; i <= 2; ++i) expected.push_back(100 * i + 10 * (j - 1) + 1);
  EXPECT_EQ(out, expected);
  // Every index of dim 0, empty range on dim 1: nothing selected, nothing written.
  int64_t empty[9] = {0, 0, 0, 2, 3, 2, 1, 1, 0};
  EXPECT_EQ(pvi_subscript(3, t.dims, empty, lists, t.v.data(), out.data()), 0);
}

TEST(SubscriptKernel, OutOfRangeIsReportedAndNothingWritten) {
  Tensor t;
  std::vector<int64_t> bad = {1, 5};
  const int64_t* lists[3] = {nullptr, bad.data(), nullptr};
  std::vector<double> out(8, -1);
  int64_t list[9] = {0, 0, 0, 3, 0, 2, 1, 1, 0};
  EXPECT_EQ(pvi_subscript(3, t.dims, list, lists, t.v.data(), out.data()), 1);
  int64_t range[9] = {2, 0, 2, 0, 0, 0, 1, 1, 0};
  EXPECT_EQ(pvi_subscript(3, t.dims, range, lists, t.v.data(), out.data()), 1);
  int64_t single[9] = {0, 0, 0, 0, 0, 0, 1, 3, 0};
  EXPECT_EQ(pvi_subscript(3, t.dims, single, lists, t.v.data(), out.data()), 1);
  EXPECT_EQ(out, std::vector<double>(8, -1));
  EXPECT_EQ(pvi_subscript_store(3, t.dims, single, lists, out.data(), t.v.data()), 1);
  EXPECT_EQ(t.v, Tensor().v);
}

TEST(SubscriptKernel, GradientAddsIntoTheSelectedElements) {
  Tensor t;
  std::vector<int64_t> list = {2, 2};
  const int64_t* lists[1] = {list.data()};
  int64_t dims[1] = {3};
  int64_t spec[3] = {3, 0, 2};
  std::vector<double> g_out = {1.5, 2.0}, g_base = {0.25, 0.25, 0.25};
  pvi_subscript_grad(1, dims, spec, lists, g_out.data(), g_base.data());
  EXPECT_EQ(g_base, (std::vector<double>{0.25, 3.75, 0.25}));
}

TEST(SubscriptKernel, StoreLastWriteWinsAndItsGradientGoesToTheLastWriter) {
  std::vector<int64_t> list = {3, 1, 3};
  const int64_t* lists[1] = {list.data()};
  int64_t dims[1] = {4};
  int64_t spec[3] = {3, 0, 3};
  std::vector<double> base = {0, 0, 0, 0}, value = {7, 8, 9};
  ASSERT_EQ(pvi_subscript_store(1, dims, spec, lists, value.data(), base.data()), 0);
  EXPECT_EQ(base, (std::vector<double>{8, 0, 9, 0}));
  std::vector<double> g_base = {1, 2, 3, 4}, g_value = {0.5, 0.5, 0.5};
  pvi_subscript_store_grad(1, dims, spec, lists, g_base.data(), g_value.data());
  EXPECT_EQ(g_value, (std::vector<double>{0.5, 1.5, 3.5}));  // value[0] was overwritten by value[2]
  EXPECT_EQ(g_base, (std::vector<double>{0, 2, 0, 4}));
  // Without an adjoint for the value (data stored), the overwritten adjoints are still cleared.
  g_base = {1, 2, 3, 4};
  pvi_subscript_store_grad(1, dims, spec, lists, g_base.data(), nullptr);
  EXPECT_EQ(g_base, (std::vector<double>{0, 2, 0, 4}));
}

}  // namespace
