// Each tests/invalid/*.pvi states the diagnostics it must produce, one per comment line:
//   // expect: LINE:COL: error: MESSAGE
// The checker's diagnostics (errors and warnings, sorted by position) must be exactly those.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "test_support.hpp"

namespace pvi::test {
namespace {

std::vector<std::filesystem::path> invalidPrograms() {
  std::vector<std::filesystem::path> out;
  for (const auto& f : std::filesystem::directory_iterator(sourceDir() / "tests" / "invalid"))
    if (f.path().extension() == ".pvi") out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string expectedDiagnostics(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  const std::string marker = "// expect: ";
  while (std::getline(in, line)) {
    size_t at = line.find(marker);
    if (at != std::string::npos) out += line.substr(at + marker.size()) + "\n";
  }
  return out;
}

class InvalidProgramTest : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(InvalidProgramTest, ProducesExactlyTheExpectedDiagnostics) {
  std::string text = readText(GetParam());
  std::string expected = expectedDiagnostics(text);
  ASSERT_FALSE(expected.empty()) << GetParam() << " has no '// expect:' line";
  FrontendResult r = check(text, GetParam().filename().string());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.diags->brief(), expected);
}

TEST(InvalidPrograms, AtLeastForty) { EXPECT_GE(invalidPrograms().size(), 40u); }

std::string programName(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  std::string n = info.param.stem().string();
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(All, InvalidProgramTest, ::testing::ValuesIn(invalidPrograms()), programName);

}  // namespace
}  // namespace pvi::test
