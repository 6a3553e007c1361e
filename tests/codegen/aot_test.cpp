// Ahead-of-time code: the object file, linked with the kernel library into a shared library,
// gives bit-identical values and gradients to the JIT on the same inputs, and needs no LLVM.
#include <gtest/gtest.h>


#include "model_harness.hpp"

namespace pvi::test {
namespace {

class AotTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AotTest, BitIdenticalToJit) {
  Compiled c = compileModel(readExample(GetParam()));
  ASSERT_TRUE(c.jit) << c.errors;
  std::mt19937_64 rng(11);
  GeneratedData data = randomData(*c.front.checked, 2, rng);
  expectAotBitIdentical(c, data.shared, data.partitions, rng, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Examples, AotTest,
                         ::testing::Values("linear_regression", "logistic_regression", "hierarchical_logistic",
                                           "six_cities", "clutter", "poisson_random_effect", "bnn_classifier"));

}  // namespace
}  // namespace pvi::test
