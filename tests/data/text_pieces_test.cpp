// The small pieces under the readers: strict number text, size expressions, categorical
// mapping syntax, and the text checks (encodings, empty and unreadable files).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>

#include "data_test_support.hpp"
#include "runtime/data/CategoricalMapping.hpp"
#include "runtime/data/NumberText.hpp"
#include "runtime/data/SizeExpression.hpp"
#include "runtime/data/SourceText.hpp"

namespace pvi::test {
namespace {

TEST(NumberText, Ints) {
  EXPECT_EQ(parseIntText("42").value, 42);
  EXPECT_EQ(parseIntText(" -7\t").value, -7);
  EXPECT_EQ(parseIntText("+3").value, 3);
  EXPECT_EQ(parseIntText("9223372036854775807").value, INT64_MAX);
  EXPECT_EQ(parseIntText("9223372036854775808").status, NumberStatus::OutOfRange);
  // Nothing is coerced: a real written for an int is not an int.
  EXPECT_EQ(parseIntText("1.0").status, NumberStatus::NotAnInt);
  EXPECT_EQ(parseIntText("1e3").status, NumberStatus::NotAnInt);
  EXPECT_EQ(parseIntText("NaN").status, NumberStatus::NotAnInt);
  EXPECT_EQ(parseIntText("spam").status, NumberStatus::NotANumber);
  EXPECT_EQ(parseIntText("").status, NumberStatus::NotANumber);
  EXPECT_EQ(parseIntText("1 2").status, NumberStatus::NotANumber);
  EXPECT_EQ(parseIntText("0x10").status, NumberStatus::NotANumber);
}

TEST(NumberText, Reals) {
  EXPECT_EQ(parseRealText("-0.4803").value, -0.4803);
  EXPECT_EQ(parseRealText("3").value, 3.0);
  EXPECT_EQ(parseRealText(".5").value, 0.5);
  EXPECT_EQ(parseRealText("5.").value, 5.0);
  EXPECT_EQ(parseRealText("+1.5e-3").value, 1.5e-3);
  EXPECT_EQ(parseRealText("2E+2").value, 200.0);
  EXPECT_TRUE(std::isnan(parseRealText("NaN").value));
  EXPECT_EQ(parseRealText("Inf").value, INFINITY);
  EXPECT_EQ(parseRealText("-inf").value, -INFINITY);
  EXPECT_EQ(parseRealText("Infinity").value, INFINITY);
  EXPECT_EQ(parseRealText("1e400").status, NumberStatus::OutOfRange);
  EXPECT_EQ(parseRealText("-1e400").status, NumberStatus::OutOfRange);
  // Too small rounds to zero, as JSON parsers do.
  EXPECT_EQ(parseRealText("1e-400").status, NumberStatus::Ok);
  EXPECT_EQ(parseRealText("1e-400").value, 0.0);
  EXPECT_EQ(parseRealText("0.000001e-320").value, 0.0);
  for (const char* bad : {"", "e5", "1e", "1.2.3", "1,5", "--1", "abc", ".", "0x1p3", "nanx", "1 e5"})
    EXPECT_EQ(parseRealText(bad).status, NumberStatus::NotANumber) << bad;
}

TEST(SizeExpression, Evaluates) {
  SizeEnvironment env{{"N", 5}, {"K", 3}, {"D", 57}};
  EXPECT_EQ(evaluateSize("N", env), 5);
  EXPECT_EQ(evaluateSize("K + 1", env), 4);
  EXPECT_EQ(evaluateSize("2 * (N - K)", env), 4);
  EXPECT_EQ(evaluateSize("D / 2 % 5", env), 3);
  EXPECT_EQ(evaluateSize("-K + 10", env), 7);
  EXPECT_EQ(evaluateSize("12", env), 12);
}

TEST(SizeExpression, UnknownIsNotGuessed) {
  SizeEnvironment env{{"N", 5}};
  EXPECT_EQ(evaluateSize("M", env), std::nullopt);
  EXPECT_EQ(evaluateSize("size(y)", env), std::nullopt);
  EXPECT_EQ(evaluateSize("N / 0", env), std::nullopt);
  EXPECT_EQ(evaluateSize("N +", env), std::nullopt);
  EXPECT_EQ(evaluateSize("(N", env), std::nullopt);
  EXPECT_EQ(evaluateSize("99999999999999999999", env), std::nullopt);
  EXPECT_EQ(sizeNames("K + 1"), (std::vector<std::string>{"K"}));
  EXPECT_EQ(sizeNames("max(N, M) * 2"), (std::vector<std::string>{"N", "M"}));
  EXPECT_EQ(sizeNames("1e3"), (std::vector<std::string>{}));
}

TEST(CategoricalMappingSyntax, Parses) {
  CategoricalMapping m = parseCategoricalMapping("y=spam:1,nonspam:0");
  EXPECT_EQ(m.column, "y");
  ASSERT_EQ(m.values.size(), 2u);
  EXPECT_EQ(m.find("spam"), 1);
  EXPECT_EQ(m.find(" nonspam "), 0);
  EXPECT_EQ(m.find("other"), std::nullopt);
  // A label runs to the last ':'.
  EXPECT_EQ(parseCategoricalMapping("t=12:30:1,x:-2").find("12:30"), 1);
  EXPECT_EQ(parseCategoricalMapping("t=12:30:1,x:-2").find("x"), -2);
  EXPECT_EQ(suggestMapping("y", {"nonspam", "spam"}), "y=nonspam:0,spam:1");
}

TEST(CategoricalMappingSyntax, Errors) {
  for (const char* bad : {"y", "=a:1", "y=", "y=spam", "y=spam:one", "y=spam:1.0", "y=a:1,a:2", "y=a:1,"}) {
    DataInputError e = dataError([&] { parseCategoricalMapping(bad); });
    EXPECT_EQ(e.kind(), DataErrorKind::Mapping) << bad;
    EXPECT_TRUE(contains(e.what(), "invalid categorical mapping")) << e.what();
    EXPECT_TRUE(contains(e.what(), "COLUMN=LABEL:INT")) << e.what();
  }
  EXPECT_TRUE(contains(dataError([] { parseCategoricalMapping("y=a:1,a:2"); }).what(), "\"a\" is mapped twice"));
  DataInputError two = dataError([] { checkMappings({{"y", {{"a", 1}}}, {"y", {{"b", 2}}}}); });
  EXPECT_STREQ(two.what(), "column 'y' has two categorical mappings");
}

SourceText checked(std::string bytes) {
  SourceText s{"f.csv", std::move(bytes)};
  checkSourceText(s);
  return s;
}

TEST(SourceTextChecks, Utf8AndBom) {
  EXPECT_EQ(checked("a,b\n").text, "a,b\n");
  EXPECT_EQ(checked("\xEF\xBB\xBF" "a\n").text, "a\n");           // UTF-8 BOM dropped
  EXPECT_EQ(checked("é,日本\n").text, "é,日本\n");                  // valid multibyte text
}

TEST(SourceTextChecks, WrongEncodings) {
  DataInputError e16 = dataError([] { checked(std::string("\xFF\xFE" "a\0,\0", 6)); });
  EXPECT_EQ(e16.kind(), DataErrorKind::Encoding);
  EXPECT_STREQ(e16.what(), "f.csv: the file is UTF-16 (byte order mark); data files must be UTF-8: save the file as UTF-8");
  EXPECT_TRUE(contains(dataError([] { checked(std::string("\xFE\xFF\0a", 4)); }).what(), "UTF-16"));
  EXPECT_TRUE(contains(dataError([] { checked(std::string("\xFF\xFE\0\0a\0\0\0", 8)); }).what(), "UTF-32"));
  DataInputError latin1 = dataError([] { checked("city\nZ\xFCrich\n"); });
  EXPECT_EQ(latin1.kind(), DataErrorKind::Encoding);
  EXPECT_EQ(latin1.where().line, 2u);
  EXPECT_EQ(latin1.where().column, 2u);
  EXPECT_TRUE(contains(latin1.what(), "f.csv:2:2: invalid UTF-8 byte 0xFC (Latin-1 or Windows-1252?)"));
  DataInputError nul = dataError([] { checked(std::string("a\0b\0", 4)); });
  EXPECT_TRUE(contains(nul.what(), "NUL byte"));
  // Overlong encodings, surrogates and truncated sequences are not UTF-8 either.
  for (std::string bad : {"\xC0\xAF", "\xED\xA0\x80", "\xE2\x82", "\xF4\x90\x80\x80", "ok\x80"})
    EXPECT_EQ(dataError([&] { checked(bad); }).kind(), DataErrorKind::Encoding) << bad;
}

TEST(SourceTextChecks, EmptyAndUnreadableFiles) {
  EXPECT_STREQ(dataError([] { checked(""); }).what(), "f.csv: the file is empty");
  EXPECT_STREQ(dataError([] { checked(" \n\r\n"); }).what(), "f.csv: the file holds only blank space");
  EXPECT_STREQ(dataError([] { checked("\xEF\xBB\xBF"); }).what(), "f.csv: the file is empty");
  auto dir = scratchDir("files");
  DataInputError missing = dataError([&] { readSourceFile((dir / "nope.json").string()); });
  EXPECT_EQ(missing.kind(), DataErrorKind::File);
  EXPECT_EQ(missing.what(), (dir / "nope.json").string() + ": cannot read the file: no such file");
  EXPECT_TRUE(contains(dataError([&] { readSourceFile(dir.string()); }).what(), "it is a directory"));
  writeFile(dir / "empty.json", "");
  EXPECT_EQ(dataError([&] { readSourceFile((dir / "empty.json").string()); }).kind(), DataErrorKind::File);
  if (::geteuid() != 0) {  // root reads anything
    auto p = writeFile(dir / "secret.json", "{}");
    std::filesystem::permissions(p, std::filesystem::perms::none);
    EXPECT_TRUE(contains(dataError([&] { readSourceFile(p.string()); }).what(), "cannot read the file: Permission denied"));
  }
}

}  // namespace
}  // namespace pvi::test
