// How diagnostics look: file:line:col, the source line, a caret under the span; all errors of a
// run, sorted; columns in code points; tabs kept so the caret lines up.
#include <gtest/gtest.h>

#include <sstream>

#include "test_support.hpp"

namespace pvi::test {
namespace {

std::string rendered(const std::string& text) {
  FrontendResult r = check(text, "m.pvi");
  std::ostringstream out;
  r.diags->render(out);
  return out.str();
}

TEST(Diagnostics, CaretUnderTheSpan) {
  EXPECT_EQ(rendered("data { real x; }\nmodel {\n  x ~ normal(mu, 1);\n}\n"),
            "m.pvi:3:14: error: undefined name 'mu'\n"
            " 3 |   x ~ normal(mu, 1);\n"
            "   |              ^~\n"
            "m.pvi: 1 error, 0 warnings\n");
}

TEST(Diagnostics, NotesPointAtTheDeclaration) {
  EXPECT_EQ(rendered("data { real x; }\nmodel {\n  x = 1;\n}\n"),
            "m.pvi:3:3: error: cannot assign to data 'x': data are fixed\n"
            " 3 |   x = 1;\n"
            "   |   ^\n"
            "m.pvi:1:13: note: 'x' is declared here\n"
            " 1 | data { real x; }\n"
            "   |             ^\n"
            "m.pvi: 1 error, 0 warnings\n");
}

TEST(Diagnostics, TabsKeepTheCaretAligned) {
  EXPECT_EQ(rendered("data { real x; }\nmodel {\n\tx ~ normal(\tmu, 1);\n}\n"),
            "m.pvi:3:14: error: undefined name 'mu'\n"
            " 3 | \tx ~ normal(\tmu, 1);\n"
            "   | \t           \t^~\n"
            "m.pvi: 1 error, 0 warnings\n");
}

TEST(Diagnostics, ColumnsCountCodePoints) {
  // "é" is two bytes in UTF-8 but one column.
  std::string out = rendered("// café\ndata { real x; }\nmodel { /* é */ x ~ normal(q, 1); }\n");
  EXPECT_NE(out.find("m.pvi:3:28: error: undefined name 'q'"), std::string::npos) << out;
}

TEST(Diagnostics, AllErrorsOfARunSortedByPosition) {
  FrontendResult r = check("data { real x; }\nmodel {\n  x ~ normal(a, 1);\n  x ~ normal(0, b);\n  x ~ nrml(0, 1);\n}\n");
  EXPECT_EQ(r.diags->brief(),
            "3:14: error: undefined name 'a'\n"
            "4:17: error: undefined name 'b'\n"
            "5:7: error: unknown distribution 'nrml'; did you mean 'normal'?\n");
}

TEST(Diagnostics, MultiLineSpanMarksItsFirstCharacter) {
  std::string out = rendered("data { vector[3] v; }\nmodel {\n  target += v\n    * v;\n}\n");
  EXPECT_NE(out.find(" 3 |   target += v\n   |             ^\n"), std::string::npos) << out;
}

TEST(Diagnostics, ErrorLimitStopsTheRun) {
  std::string text = "model {\n";
  for (int i = 0; i < 20; ++i) text += "  target += u" + std::to_string(i) + ";\n";
  text += "}\n";
  FrontendResult r = runFrontend("m.pvi", text, 5);
  EXPECT_EQ(r.diags->errorCount(), 5u);
  std::ostringstream out;
  r.diags->render(out);
  EXPECT_NE(out.str().find("m.pvi: more than 5 errors, stopping"), std::string::npos);
}

TEST(Diagnostics, ExactlyTheLimitIsNotTruncated) {
  // Five errors with a limit of five: all shown, each with its note, and no "stopping" line.
  std::string text = "data { int N; }\nmodel {\n";
  for (int i = 0; i < 5; ++i) text += "  N = " + std::to_string(i) + ";\n";
  text += "}\n";
  FrontendResult r = runFrontend("m.pvi", text, 5);
  EXPECT_EQ(r.diags->errorCount(), 5u);
  std::ostringstream out;
  r.diags->render(out);
  EXPECT_EQ(out.str().find("stopping"), std::string::npos) << out.str();
  size_t notes = 0;
  for (size_t at = out.str().find("note:"); at != std::string::npos; at = out.str().find("note:", at + 1)) ++notes;
  EXPECT_EQ(notes, 5u) << out.str();
}

TEST(Diagnostics, SyntaxErrorsAreAllReported) {
  FrontendResult r = check("data { real x }\nmodel {\n  x ~ normal(0, 1)\n}\n");
  EXPECT_EQ(r.diags->brief(),
            "1:15: error: syntax error: unexpected '}'; expected ';' or '='\n"
            "4:1: error: syntax error: expected ';' before '}'\n");
}

TEST(Diagnostics, EndOfFileIsNamed) {
  FrontendResult r = check("model {\n  target += 1;\n");
  EXPECT_EQ(r.diags->brief(), "3:1: error: syntax error: unexpected end of file\n");
}

}  // namespace
}  // namespace pvi::test
