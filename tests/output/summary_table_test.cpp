// The terminal summary table: header, alignment, significant digits, analytic columns.
#include <gtest/gtest.h>

#include "OutputTestSupport.hpp"
#include "runtime/output/SummaryTable.hpp"

namespace pvi::output {
namespace {

ColumnSummary row(std::string name, double mean, double sd, double q5, double q50, double q95) {
  ColumnSummary s;
  s.name = std::move(name);
  s.mean = mean;
  s.sd = sd;
  s.q5 = q5;
  s.q50 = q50;
  s.q95 = q95;
  return s;
}

TEST(SummaryTable, ExactLayout) {
  const std::string table = formatSummaryTable(
      {row("alpha", 1.23456, 0.5, 0.4, 1.2, 2.05), row("beta.10", -12345.6, 0.000123456, -2e-7, 3, 1e6)}, 4);
  EXPECT_EQ(table,
            "Name           Mean         SD      5%  50%    95%\n"
            "alpha         1.235        0.5     0.4  1.2   2.05\n"
            "beta.10  -1.235e+04  0.0001235  -2e-07    3  1e+06\n");
}

TEST(SummaryTable, ColumnsAreAligned) {
  const std::string table = formatSummaryTable(
      {row("a", 1, 2, 3, 4, 5), row("a_much_longer_name.12", 100.5, 0.25, -1, 0, 1), row("c", NAN, NAN, NAN, NAN, NAN)});
  const std::vector<std::string> lines = test::lines(table);
  ASSERT_EQ(lines.size(), 4u);
  for (const std::string& line : lines) EXPECT_EQ(line.size(), lines[0].size()) << line;  // right edges line up
  EXPECT_TRUE(lines[0].starts_with("Name "));
  EXPECT_TRUE(lines[0].ends_with("95%"));
  EXPECT_TRUE(lines[2].starts_with("a_much_longer_name.12"));
  EXPECT_NE(lines[3].find("nan"), std::string::npos);
}

TEST(SummaryTable, AnalyticColumnsOnlyWhenGiven) {
  ColumnSummary a = row("a", 1, 1, 0, 1, 2);
  ColumnSummary b = row("b", 1, 1, 0, 1, 2);
  EXPECT_EQ(formatSummaryTable({a, b}).find("Mean(q)"), std::string::npos);
  a.analytic = AnalyticMoments{0.75, 0.125};
  const std::vector<std::string> lines = test::lines(formatSummaryTable({a, b}));
  EXPECT_TRUE(lines[0].ends_with("Mean(q)  SD(q)")) << lines[0];
  EXPECT_TRUE(lines[1].ends_with("0.75  0.125")) << lines[1];
  EXPECT_TRUE(lines[2].ends_with("-      -")) << lines[2];
}

}  // namespace
}  // namespace pvi::output
