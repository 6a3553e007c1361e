// Dump-and-compare tests of the factor IR and its gradient (pvic --dump-ir) for every example
// the code generator supports; PVI_UPDATE_DUMPS=1 rewrites tests/dump/<example>.ir.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/ad/Reverse.hpp"
#include "compiler/ir/Ir.hpp"
#include "model_harness.hpp"

namespace pvi::test {
namespace {

class IrDumpTest : public ::testing::TestWithParam<std::string> {};

TEST_P(IrDumpTest, MatchesExpected) {
  std::filesystem::path root(PVI_SOURCE_DIR);
  FrontendResult r = runFrontend("model.pvi", readFile(root / "examples" / GetParam() / "model.pvi"));
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  auto lowered = lowerModel(*r.checked, *r.diags);
  ASSERT_TRUE(lowered) << r.diags->brief();
  std::ostringstream out;
  ir::print(out, lowered->prior);
  ir::print(out, differentiate(lowered->prior));
  ir::print(out, lowered->partition);
  ir::print(out, differentiate(lowered->partition));
  std::filesystem::path expected = root / "tests" / "dump" / (GetParam() + ".ir");
  const char* update = std::getenv("PVI_UPDATE_DUMPS");
  if (update && std::string(update) == "1") {
    std::ofstream(expected) << out.str();
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(expected)) << expected << " is missing; PVI_UPDATE_DUMPS=1 creates it";
  EXPECT_EQ(out.str(), readFile(expected)) << "IR differs from " << expected;
}

INSTANTIATE_TEST_SUITE_P(Examples, IrDumpTest,
                         ::testing::Values("linear_regression", "logistic_regression", "hierarchical_logistic",
                                           "six_cities", "clutter", "poisson_random_effect", "bnn_classifier"));

}  // namespace
}  // namespace pvi::test
