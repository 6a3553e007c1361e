// Per-partition local posteriors: each partition's files in its own directory, nothing mixed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "OutputTestSupport.hpp"
#include "runtime/output/PartitionLocals.hpp"
#include "runtime/output/StanCsvReader.hpp"

namespace pvi::output {
namespace {

PartitionLocals partition(const std::string& label, double offset) {
  PartitionLocals p;
  p.label = label;
  p.draws.columns = {"w.1", "w.2", "y_hat"};
  p.draws.numParameters = 2;
  p.draws.values.resize(5, 3);
  for (int i = 0; i < 5; ++i) p.draws.values.row(i) << offset + i, offset - i, offset * 0.1 + 1.0 / 3.0;
  return p;
}

TEST(PartitionLocals, EachPartitionWritesOnlyItsOwnDirectory) {
  test::TempDir dir;
  RunInfo run;
  run.model = "six_cities";
  const auto a = writePartitionLocals(dir.path(), run, partition("hospital_a", 100.0));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"hospital_a"});
  const auto b = writePartitionLocals(dir.path(), run, partition("hospital_b", -5.0));
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"hospital_a", "hospital_b"}));
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0], dir / "hospital_a" / "locals.csv");
  EXPECT_EQ(a[1], dir / "hospital_a" / "locals_summary.json");

  for (const auto& [label, offset] : {std::pair{"hospital_a", 100.0}, std::pair{"hospital_b", -5.0}}) {
    const StanCsvFile f = readStanCsv(dir / label / "locals.csv");
    EXPECT_EQ(f.config.at("partition"), label);
    EXPECT_EQ(f.config.at("model"), "six_cities");
    EXPECT_EQ(f.columns, (std::vector<std::string>{"w.1", "w.2", "y_hat"}));
    EXPECT_FALSE(f.mean);
    EXPECT_EQ(f.draws, partition(label, offset).draws.values);  // exact: round-trip formatting

    const auto j = nlohmann::json::parse(test::readFile(dir / label / "locals_summary.json"));
    EXPECT_EQ(j.at("partition"), label);
    EXPECT_EQ(j.at("locals").size(), 2u);
    EXPECT_EQ(j.at("generated_quantities").size(), 1u);
    EXPECT_DOUBLE_EQ(j.at("locals")[0].at("mean").get<double>(), offset + 2.0);
  }
}

TEST(PartitionLocals, LabelsThatEscapeTheirDirectoryAreRejected) {
  test::TempDir dir;
  for (const std::string& label : std::vector<std::string>{"", ".", "..", "../x", "a/b", "a\\b", std::string("a\0b", 3),
                                                                 "a\nb", std::string(256, 'x')}) {
    EXPECT_THROW(writePartitionLocals(dir / "out", RunInfo{}, partition(label, 0.0)), std::invalid_argument)
        << label;
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(PartitionLocals, InconsistentDrawsAreRejectedBeforeWriting) {
  test::TempDir dir;
  PartitionLocals p = partition("a", 1.0);
  p.draws.columns.pop_back();
  EXPECT_THROW(writePartitionLocals(dir.path(), RunInfo{}, p), std::invalid_argument);
  p = partition("a", 1.0);
  p.analytic = {AnalyticMoments{}};
  EXPECT_THROW(writePartitionLocals(dir.path(), RunInfo{}, p), std::invalid_argument);
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace pvi::output
