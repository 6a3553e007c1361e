// The pvic command line: exit codes 0 (valid), 1 (invalid), 2 (usage or I/O), and its outputs.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace pvi::test {
namespace {

std::filesystem::path scratch(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / ("pvic-driver-" + name);
  writeText(p, text);
  return p;
}

const char* kValid = "data { int N; vector[N] y; }\nglobal { real mu; }\nmodel {\n  mu ~ normal(0, 1);\n  y ~ normal(mu, 1);\n}\n";
const char* kInvalid = "data { int N; vector[N] y; }\nmodel {\n  y ~ normal(mu, 1);\n}\n";

TEST(Driver, ValidModelExitsZero) {
  ProcessResult r = runPvic({"check", scratch("valid.pvi", kValid).string()});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.err, "");
}

TEST(Driver, InvalidModelExitsOneWithDiagnostics) {
  auto path = scratch("invalid.pvi", kInvalid);
  ProcessResult r = runPvic({"check", path.string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find(path.string() + ":3:14: error: undefined name 'mu'"), std::string::npos) << r.err;
}

TEST(Driver, WorstResultOfSeveralFiles) {
  ProcessResult r = runPvic({"check", scratch("valid.pvi", kValid).string(), scratch("invalid.pvi", kInvalid).string()});
  EXPECT_EQ(r.exitCode, 1);
}

TEST(Driver, MissingFileExitsTwo) {
  ProcessResult r = runPvic({"check", "/nonexistent/model.pvi"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("cannot read '/nonexistent/model.pvi'"), std::string::npos) << r.err;
}

TEST(Driver, DirectoryExitsTwo) {
  ProcessResult r = runPvic({"check", std::filesystem::temp_directory_path().string()});
  EXPECT_EQ(r.exitCode, 2);
}

TEST(Driver, BadUsageExitsTwo) {
  EXPECT_EQ(runPvic({}).exitCode, 2);
  EXPECT_EQ(runPvic({"check"}).exitCode, 2);
  EXPECT_EQ(runPvic({"check", "--no-such-flag", "x.pvi"}).exitCode, 2);
  EXPECT_EQ(runPvic({"frobnicate"}).exitCode, 2);
  EXPECT_EQ(runPvic({"check", "--max-errors", "0", "x.pvi"}).exitCode, 2);
}

TEST(Driver, HelpAndVersionExitZero) {
  ProcessResult help = runPvic({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("Exit codes"), std::string::npos);
  ProcessResult checkHelp = runPvic({"check", "--help"});
  EXPECT_EQ(checkHelp.exitCode, 0);
  EXPECT_NE(checkHelp.out.find("--factors"), std::string::npos);
  EXPECT_EQ(runPvic({"--version"}).exitCode, 0);
}

TEST(Driver, FactorsAndAstDumps) {
  auto path = scratch("valid.pvi", kValid);
  ProcessResult factors = runPvic({"check", "--factors", path.string()});
  EXPECT_EQ(factors.exitCode, 0);
  EXPECT_NE(factors.out.find("factor prior (2 statements):\n  4:3  mu ~ normal(0, 1)\n  5:3  y ~ normal(mu, 1)\n"),
            std::string::npos)
      << factors.out;
  ProcessResult ast = runPvic({"--dump-ast", path.string()});
  EXPECT_EQ(ast.exitCode, 0);
  EXPECT_NE(ast.out.find("    tilde normal  @5:3\n      name y  : vector[N]  @5:3\n"), std::string::npos) << ast.out;
}

TEST(Driver, DumpAstOfAnInvalidModelStillPrintsTheTree) {
  ProcessResult r = runPvic({"--dump-ast", scratch("invalid.pvi", kInvalid).string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.out.find("name mu  @3:14"), std::string::npos) << r.out;
}

TEST(Driver, MaxErrorsLimitsTheReport) {
  std::string text = "model {\n";
  for (int i = 0; i < 10; ++i) text += "  target += u" + std::to_string(i) + ";\n";
  text += "}\n";
  ProcessResult r = runPvic({"check", "--max-errors", "3", scratch("many.pvi", text).string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("more than 3 errors, stopping"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pvi::test
