// Partition labels name the output directories <locals-dir>/<label>/, so labels that cannot be a
// file name are refused when the data are read, naming the file, the line and the label; they
// were once found only after the fit, when the locals were written.
#include <gtest/gtest.h>

#include "data_test_support.hpp"
#include "runtime/data/PartitionLabel.hpp"

namespace pvi::test {
namespace {

const char* kLabelsModel = R"(
@partition(client)
data { real<lower=0> sigma; }
data per client { int<lower=0> N; vector[N] y; }
global { real mu; }
local per client { real a; }
model { mu ~ normal(0, 1); a ~ normal(0, 1); y ~ normal(mu + a, sigma); }
)";

const std::string kLong300(300, 'x');

class PartitionLabels : public ::testing::Test {
 protected:
  void SetUp() override { schema_ = schemaOf(kLabelsModel); }
  BoundData loadCsv(const std::string& csv) {
    DataTexts t;
    t.sharedJson = text("data.json", R"({"sigma": 1})");
    t.partitionCsv = text("clients.csv", csv);
    return loadDataTexts(schema_, t);
  }
  BoundData loadJson(const std::vector<std::string>& names, const std::vector<std::string>& labels = {}) {
    DataTexts t;
    t.sharedJson = text("data.json", R"({"sigma": 1})");
    for (const std::string& n : names) t.partitionJson.push_back(text(n, R"({"N": 1, "y": [0.5]})"));
    t.partitionLabels = labels;
    return loadDataTexts(schema_, t);
  }
  DataSchema schema_;
};

TEST(PartitionLabelRule, UsableLabelsAreFileNames) {
  for (const std::string& ok : {std::string("north"), std::string("3"), std::string("a b"), std::string(".hidden"),
                                std::string("..."), std::string("a:b"), std::string("\xC3\xBC"), std::string(255, 'x')})
    EXPECT_EQ(partitionLabelProblem(ok), "") << ok;
  EXPECT_EQ(partitionLabelProblem(""), "it is empty");
  EXPECT_EQ(partitionLabelProblem("."), "'.' names the directory itself");
  EXPECT_EQ(partitionLabelProblem(".."), "'..' names the parent directory");
  EXPECT_EQ(partitionLabelProblem("a/b"), "it contains '/'");
  EXPECT_EQ(partitionLabelProblem("../escape"), "it contains '/'");
  EXPECT_EQ(partitionLabelProblem("a\\b"), "it contains '\\'");
  EXPECT_EQ(partitionLabelProblem("a\nb"), "it contains a line break");
  EXPECT_EQ(partitionLabelProblem("a\rb"), "it contains a line break");
  EXPECT_EQ(partitionLabelProblem("a\tb"), "it contains a tab");
  EXPECT_EQ(partitionLabelProblem(std::string("a\0b", 3)), "it contains the control character 0x00");
  EXPECT_EQ(partitionLabelProblem(std::string(256, 'x')), "it is 256 bytes long, more than the 255 of a file name");
}

TEST_F(PartitionLabels, CsvLabelsThatCannotNameADirectoryAreRefusedAtTheirLine) {
  struct Case {
    std::string cell;   // as written in the file
    std::string shown;  // the label as the message quotes it
    std::string problem;
  };
  const std::vector<Case> cases = {
      {".", "\".\"", "'.' names the directory itself"},
      {"..", "\"..\"", "'..' names the parent directory"},
      {"a/b", "\"a/b\"", "it contains '/'"},
      {"../escape", "\"../escape\"", "it contains '/'"},
      {"a\\b", "\"a\\\\b\"", "it contains '\\'"},
      {"\"line\nbreak\"", "\"line\\x0Abreak\"", "it contains a line break"},
      {kLong300, "\"" + std::string(60, 'x') + "...\" (300 characters)", "it is 300 bytes long"},
  };
  for (const Case& c : cases) {
    // The bad label first appears on line 3 (a quoted line break makes its record span 3-4).
    const std::string csv = "client,y\nok,1\n" + c.cell + ",2\nok,3\n" + c.cell + ",4\n";
    DataInputError e = dataError([&] { loadCsv(csv); });
    EXPECT_EQ(e.kind(), DataErrorKind::Partition) << c.cell;
    EXPECT_EQ(e.where().file, "clients.csv");
    EXPECT_EQ(e.where().line, 3u) << c.cell;
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("clients.csv:3: column 'client': the partition label " + c.shown +
                             " cannot name the client's output directory: " + c.problem,
                         0),
              0u)
        << what;
    EXPECT_LT(what.size(), 500u) << what;
  }
  // An empty label has its own message, at its line too.
  DataInputError empty = dataError([&] { loadCsv("client,y\nok,1\n ,2\n"); });
  EXPECT_STREQ(empty.what(), "clients.csv:3: column 'client': the partition label is empty");
}

TEST_F(PartitionLabels, UsableCsvLabelsAreKeptAsWritten) {
  BoundData d = loadCsv("client,y\n.hidden,1\n\xC3\xBC,2\n" + std::string(255, 'x') + ",3\na b,4\n");
  EXPECT_EQ(d.labels, (std::vector<std::string>{".hidden", "\xC3\xBC", std::string(255, 'x'), "a b"}));
}

TEST_F(PartitionLabels, JsonLabelsFromFileNamesAndGivenLabels) {
  // Without its extension "..json" is "." and "...json" is "..".
  DataInputError dot = dataError([&] { loadJson({"north.json", "parts/..json"}); });
  EXPECT_EQ(dot.kind(), DataErrorKind::Partition);
  EXPECT_EQ(dot.where().file, "parts/..json");
  EXPECT_TRUE(contains(dot.what(), "parts/..json: the partition label \".\" cannot name the client's output "
                                   "directory: '.' names the directory itself"))
      << dot.what();
  EXPECT_TRUE(contains(dot.what(), "the label is the file's name without its extension")) << dot.what();
  DataInputError dots = dataError([&] { loadJson({"north.json", "parts/...json"}); });
  EXPECT_TRUE(contains(dots.what(), "parts/...json: the partition label \"..\" cannot name the client's output "
                                    "directory: '..' names the parent directory"))
      << dots.what();

  for (const std::string& bad : {std::string("a/b"), std::string("../escape"), std::string("x\ny"), kLong300}) {
    DataInputError e = dataError([&] { loadJson({"n.json", "s.json"}, {"north", bad}); });
    EXPECT_EQ(e.kind(), DataErrorKind::Partition);
    EXPECT_EQ(e.where().file, "s.json");
    EXPECT_TRUE(contains(e.what(), "s.json: the partition label " + pvi::quoted(bad) + " cannot name")) << e.what();
    EXPECT_TRUE(contains(e.what(), "the label was given for this file")) << e.what();
  }
  EXPECT_EQ(loadJson({"n.json", "s.json"}, {"north", "south"}).labels, (std::vector<std::string>{"north", "south"}));
}

}  // namespace
}  // namespace pvi::test
