// The RFC 4180 CSV reader: quoting, embedded separators and line breaks, CRLF, line numbers,
// and the malformed inputs it refuses; round trips through formatCsvRecord.
#include <gtest/gtest.h>

#include <random>

#include "data_test_support.hpp"
#include "runtime/data/Csv.hpp"

namespace pvi::test {
namespace {

CsvTable parse(const std::string& t) { return parseCsv(SourceText{"t.csv", t}); }

using Rows = std::vector<std::vector<std::string>>;

TEST(Csv, PlainFieldsAndLineNumbers) {
  CsvTable t = parse("a,b\n1,2\n3,4\n");
  EXPECT_EQ(t.header, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.headerLine, 1u);
  EXPECT_EQ(t.rows, (Rows{{"1", "2"}, {"3", "4"}}));
  EXPECT_EQ(t.lines, (std::vector<size_t>{2, 3}));
}

TEST(Csv, QuotedFieldsHoldCommasQuotesAndLineBreaks) {
  CsvTable t = parse("name,text\n\"a,b\",\"say \"\"hi\"\"\"\n\"multi\nline\",x\nlast,\"\"\n");
  EXPECT_EQ(t.rows, (Rows{{"a,b", "say \"hi\""}, {"multi\nline", "x"}, {"last", ""}}));
  // The record with the embedded line break starts on line 3 and the next one on line 5.
  EXPECT_EQ(t.lines, (std::vector<size_t>{2, 3, 5}));
}

TEST(Csv, CrLfAndMissingFinalNewline) {
  CsvTable t = parse("a,b\r\n1,2\r\n3,\"x\r\ny\"");
  EXPECT_EQ(t.rows, (Rows{{"1", "2"}, {"3", "x\r\ny"}}));
  EXPECT_EQ(t.lines, (std::vector<size_t>{2, 3}));
}

TEST(Csv, EmptyLinesAreSkippedButCounted) {
  CsvTable t = parse("a\n\n1\n\r\n\n2\n\n");
  EXPECT_EQ(t.rows, (Rows{{"1"}, {"2"}}));
  EXPECT_EQ(t.lines, (std::vector<size_t>{3, 6}));
}

TEST(Csv, EmptyFieldsAtTheEnds) {
  CsvTable t = parse("a,b,c\n,,\n1,,\n");
  EXPECT_EQ(t.rows, (Rows{{"", "", ""}, {"1", "", ""}}));
}

TEST(Csv, RaggedRowIsAnErrorNamingTheLine) {
  DataInputError e = dataError([] { parse("a,b,c\n1,2,3\n4,5\n"); });
  EXPECT_EQ(e.kind(), DataErrorKind::Syntax);
  EXPECT_EQ(e.where().line, 3u);
  EXPECT_STREQ(e.what(), "t.csv:3: malformed CSV: this row has 2 fields, the header (line 1) has 3");
}

TEST(Csv, TooManyFields) {
  DataInputError e = dataError([] { parse("a,b\n1,2,3\n"); });
  EXPECT_EQ(e.where().line, 2u);
  EXPECT_TRUE(contains(e.what(), "this row has 3 fields"));
}

TEST(Csv, UnterminatedQuoteNamesWhereItOpened) {
  DataInputError e = dataError([] { parse("a,b\n1,2\n3,\"abc\n4,5\n"); });
  EXPECT_EQ(e.kind(), DataErrorKind::Syntax);
  EXPECT_EQ(e.where().line, 3u);
  EXPECT_EQ(e.where().column, 3u);
  EXPECT_TRUE(contains(e.what(), "t.csv:3:3: malformed CSV: unterminated quoted field"));
}

TEST(Csv, QuoteInsideUnquotedField) {
  DataInputError e = dataError([] { parse("a,b\n1,ab\"c\n"); });
  EXPECT_EQ(e.where().line, 2u);
  EXPECT_EQ(e.where().column, 5u);
  EXPECT_TRUE(contains(e.what(), "a double quote inside an unquoted field"));
}

TEST(Csv, TextAfterClosingQuote) {
  DataInputError e = dataError([] { parse("a,b\n1,\"ab\"c\n"); });
  EXPECT_EQ(e.where().line, 2u);
  EXPECT_TRUE(contains(e.what(), "text after the closing quote"));
}

TEST(Csv, NoHeader) {
  // A text of blank lines only never reaches parseCsv (checkSourceText refuses it), but the
  // parser does not rely on that.
  DataInputError e = dataError([] { parse("\n\n"); });
  EXPECT_EQ(e.kind(), DataErrorKind::File);
  EXPECT_TRUE(contains(e.what(), "no header"));
}

TEST(Csv, FormatQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(formatCsvRecord({"a", "b c", "1.5"}), "a,b c,1.5");
  EXPECT_EQ(formatCsvRecord({"a,b", "x\"y", "l1\nl2", " pad"}), "\"a,b\",\"x\"\"y\",\"l1\nl2\",\" pad\"");
  EXPECT_EQ(formatCsvRecord({""}), "\"\"");
  EXPECT_EQ(formatCsvRecord({"", ""}), ",");
}

// Random tables of awkward fields survive formatting and parsing unchanged, with LF or CRLF.
TEST(Csv, RoundTripOfRandomFields) {
  std::mt19937_64 rng(7);
  const std::string alphabet = "ab,\"\n\r 1.-é";
  for (int trial = 0; trial < 300; ++trial) {
    size_t cols = 1 + rng() % 4, rows = 1 + rng() % 5;
    std::vector<std::vector<std::string>> table;
    for (size_t r = 0; r <= rows; ++r) {
      std::vector<std::string> rec;
      for (size_t c = 0; c < cols; ++c) {
        std::string f;
        size_t len = r == 0 ? 1 + rng() % 3 : rng() % 6;
        for (size_t i = 0; i < len; ++i) {
          size_t k = rng() % 11;
          f += k == 10 ? std::string("é") : std::string(1, alphabet[k]);
        }
        rec.push_back(f);
      }
      table.push_back(rec);
    }
    std::string eol = trial % 2 ? "\r\n" : "\n";
    std::string text;
    for (const auto& rec : table) text += formatCsvRecord(rec) + eol;
    CsvTable t = parse(text);
    ASSERT_EQ(t.header, table[0]) << text;
    ASSERT_EQ(t.rows, Rows(table.begin() + 1, table.end())) << text;
  }
}

}  // namespace
}  // namespace pvi::test
