// Every bundled example checks clean: no errors and no warnings.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace pvi::test {
namespace {

class ExampleTest : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(ExampleTest, ChecksClean) {
  const auto& path = GetParam();
  FrontendResult r = check(readText(path), path.string());
  EXPECT_TRUE(r.ok()) << r.diags->brief();
  EXPECT_EQ(r.diags->warningCount(), 0u) << r.diags->brief();
}

TEST_P(ExampleTest, HasReadme) {
  auto readme = GetParam().parent_path() / "README.md";
  ASSERT_TRUE(std::filesystem::exists(readme));
  EXPECT_FALSE(readText(readme).empty());
}

TEST(Examples, AtLeastSevenExist) { EXPECT_GE(exampleModels().size(), 7u); }

std::string exampleName(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  return info.param.parent_path().filename().string();
}

INSTANTIATE_TEST_SUITE_P(All, ExampleTest, ::testing::ValuesIn(exampleModels()), exampleName);

}  // namespace
}  // namespace pvi::test
