// Dump-and-compare tests, as in stanc3: the AST (with inferred types) and the factor
// assignment of every example are compared with tests/dump/<example>.{ast,factors}.
// PVI_UPDATE_DUMPS=1 rewrites the expected files; review the diff before committing.
#include <gtest/gtest.h>

#include <sstream>

#include "compiler/ast/AstPrint.hpp"
#include "compiler/sema/FactorDump.hpp"
#include "test_support.hpp"

namespace pvi::test {
namespace {

class DumpTest : public ::testing::TestWithParam<std::filesystem::path> {
 protected:
  std::string name() const { return GetParam().parent_path().filename().string(); }
  FrontendResult checked() const {
    // The path shown in dumps is relative, so the expected files do not depend on the checkout.
    std::string shown = "examples/" + name() + "/model.pvi";
    return check(readText(GetParam()), shown);
  }
};

TEST_P(DumpTest, Ast) {
  FrontendResult r = checked();
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  std::ostringstream out;
  dumpAst(out, r.checked->program, *r.file, true);
  expectMatchesFile(out.str(), sourceDir() / "tests" / "dump" / (name() + ".ast"));
}

TEST_P(DumpTest, Factors) {
  FrontendResult r = checked();
  ASSERT_TRUE(r.ok()) << r.diags->brief();
  std::ostringstream out;
  dumpFactors(out, *r.checked, *r.file);
  expectMatchesFile(out.str(), sourceDir() / "tests" / "dump" / (name() + ".factors"));
}

// The same dumps through the command line, so `pvic --dump-ast` and `pvic check --factors`
// print exactly what is compared above.
TEST_P(DumpTest, CommandLineMatchesLibrary) {
  std::string shown = "examples/" + name() + "/model.pvi";
  ProcessResult ast = runPvic({"--dump-ast", GetParam().string()});
  EXPECT_EQ(ast.exitCode, 0) << ast.err;
  EXPECT_EQ(ast.out, readText(sourceDir() / "tests" / "dump" / (name() + ".ast")));
  ProcessResult factors = runPvic({"check", "--factors", GetParam().string()});
  EXPECT_EQ(factors.exitCode, 0) << factors.err;
  EXPECT_EQ(factors.out, readText(sourceDir() / "tests" / "dump" / (name() + ".factors")));
}

std::string dumpCaseName(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  return info.param.parent_path().filename().string();
}

INSTANTIATE_TEST_SUITE_P(All, DumpTest, ::testing::ValuesIn(exampleModels()), dumpCaseName);

}  // namespace
}  // namespace pvi::test
