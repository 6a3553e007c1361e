// Per-partition data from a CSV file with a partition column: how columns fill variables, the
// partition order, inferred sizes, constants, categorical mappings, and every refusal naming the
// file, the line, the column, the variable and the partition.
#include <gtest/gtest.h>

#include "data_test_support.hpp"

namespace pvi::test {
namespace {

const char* const kCsvModel = kClientRegressionModel;
const char* const kCsvShared = kClientRegressionShared;

const char* kPartitionsCsv =
    "client,y,X.1,X.2,z\n"
    "b,0.5,1,2,0\n"
    "a,1.5,3,4,1\n"
    "b,2.5,5,6,1\n";

class CsvPartitionsTest : public ::testing::Test {
 protected:
  void SetUp() override { schema_ = schemaOf(kCsvModel); }
  BoundData load(const std::string& csv, std::vector<CategoricalMapping> mappings = {}, std::string by = "",
                 DataOptions options = {}, const std::string& shared = kCsvShared) {
    DataTexts t;
    t.sharedJson = text("data.json", shared);
    t.partitionCsv = text("clients.csv", csv);
    t.partitionBy = std::move(by);
    t.mappings = std::move(mappings);
    t.options = options;
    return loadDataTexts(schema_, t);
  }
  DataInputError error(const std::string& csv, std::vector<CategoricalMapping> mappings = {}) {
    return dataError([&] { load(csv, std::move(mappings)); });
  }
  DataSchema schema_;
};

TEST_F(CsvPartitionsTest, ColumnsFillVariablesInOrderOfFirstAppearance) {
  BoundData d = load(kPartitionsCsv);
  EXPECT_EQ(d.labels, (std::vector<std::string>{"b", "a"}));
  ASSERT_EQ(d.partitions.size(), 2u);
  const DataBlock& b = d.partitions[0];
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b.intAt(0, 0), 2);  // N: the partition's row count
  std::vector<double> x;
  for (size_t i = 0; i < b.length(1); ++i) x.push_back(b.realAt(1, i));
  EXPECT_EQ(x, (std::vector<double>{1, 5, 2, 6}));  // X[n, j] at n + N (j - 1): rows 1 and 3 of the file
  EXPECT_EQ(b.realAt(2, 1), 2.5);
  EXPECT_EQ(b.intAt(3, 1), 1);
  EXPECT_EQ(d.partitions[1].intAt(0, 0), 1);
  EXPECT_EQ(d.partitions[1].realAt(1, 1), 4.0);
  // Origins: X[2, 2] of client "b" is on line 4, column X.2.
  EXPECT_EQ(d.origins->describe(0, 1, 3), "X[2, 2] from clients.csv line 4, column 'X.2'");
  EXPECT_EQ(d.origins->describe(1, 2, 0), "y[1] from clients.csv line 3, column 'y'");
  EXPECT_EQ(d.origins->describe(0, 0, 0), "N from clients.csv (the row count of client 'b')");
}

TEST_F(CsvPartitionsTest, LabelsAreStringsWithoutSurroundingBlanks) {
  BoundData d = load("client,y,X.1,X.2,z\n north ,1,1,1,1\n\"south east\",2,2,2,0\nnorth,3,3,3,1\n");
  EXPECT_EQ(d.labels, (std::vector<std::string>{"north", "south east"}));
  EXPECT_EQ(d.partitions[0].intAt(0, 0), 2);
}

TEST_F(CsvPartitionsTest, PartitionColumn) {
  DataInputError e = error("site,y,X.1,X.2,z\n1,1,1,1,1\n2,2,2,2,0\n");
  EXPECT_EQ(e.kind(), DataErrorKind::Partition);
  EXPECT_STREQ(e.what(), "clients.csv:1: no partition column 'client'; the columns are site, y, X.1, X.2, z");
  BoundData d = load("site,y,X.1,X.2,z\n1,1,1,1,1\n2,2,2,2,0\n", {}, "site");
  EXPECT_EQ(d.labels, (std::vector<std::string>{"1", "2"}));
  DataInputError empty = error("client,y,X.1,X.2,z\n1,1,1,1,1\n ,2,2,2,0\n");
  EXPECT_STREQ(empty.what(), "clients.csv:3: column 'client': the partition label is empty");
}

TEST_F(CsvPartitionsTest, SinglePartitionIsAnErrorUnlessAllowed) {
  const char* one = "client,y,X.1,X.2,z\n7,1,1,1,1\n7,2,2,2,0\n";
  DataInputError e = error(one);
  EXPECT_EQ(e.kind(), DataErrorKind::Partition);
  EXPECT_TRUE(contains(e.what(), "clients.csv:1: the partition column 'client' has a single value \"7\" on all 2 rows"))
      << e.what();
  BoundData d = load(one, {}, "", {.allowSinglePartition = true});
  EXPECT_EQ(d.partitions.size(), 1u);
}

TEST_F(CsvPartitionsTest, ExtraColumns) {
  DataInputError e = error("client,y,X.1,X.2,z,weight,D\n1,1,1,1,1,0,2\n2,2,2,2,0,0,2\n");
  EXPECT_EQ(e.kind(), DataErrorKind::Unexpected);
  EXPECT_STREQ(e.what(), "clients.csv:1: column 'weight': the columns 'weight', 'D' are not declared in data per "
                         "client; 'D' is declared in data { }, so it belongs in the shared data (JSON)");
}

TEST_F(CsvPartitionsTest, MissingVariablesAndColumns) {
  DataInputError gap = error("client,y,X.1,X.3,z\n1,1,1,1,1\n2,2,2,2,0\n");
  EXPECT_EQ(gap.kind(), DataErrorKind::Missing);
  EXPECT_STREQ(gap.what(), "clients.csv:1: variable 'X', column 'X.2': the column 'X.2' is missing: 'X' (matrix[N, "
                           "D]) has columns up to X.3 in this file");
  DataInputError none = error("client,X.1,X.2\n1,1,1\n2,2,2\n");
  EXPECT_EQ(none.where().variable, "y");
  EXPECT_STREQ(none.what(), "clients.csv:1: variable 'y': no column for 'y' (vector[N], a column 'y' with one value "
                            "per row), 'z' (array[N] int<lower=0, upper=1>, a column 'z' with one value per row) of "
                            "data per client; the file's columns are client, X.1, X.2");
}

TEST_F(CsvPartitionsTest, ColumnCountAgainstDeclaredSize) {
  DataInputError e = error("client,y,X.1,X.2,X.3,z\n1,1,1,1,1,1\n2,2,2,2,2,0\n");
  EXPECT_EQ(e.kind(), DataErrorKind::Shape);
  EXPECT_STREQ(e.what(), "clients.csv:1: client '1', variable 'X': 'X' has 3 columns, but its type matrix[N, D] "
                         "needs D = 2 (D from data.json)");
}

TEST_F(CsvPartitionsTest, SizesFromTheSharedFileNameThatFile) {
  // D = 0 in the shared JSON: the wrong value is D, so the message names the file it came from.
  DataInputError zero = dataError([&] { load(kPartitionsCsv, {}, "", {}, R"({"D": 0, "sigma": 1.5})"); });
  EXPECT_STREQ(zero.what(), "clients.csv:1: client 'b', variable 'X': 'X' has 2 columns, but its type matrix[N, D] "
                            "needs D = 0 (D from data.json)");
  DataInputError negative = dataError([&] { load(kPartitionsCsv, {}, "", {}, R"({"D": -1, "sigma": 1.5})"); });
  EXPECT_STREQ(negative.what(), "clients.csv:1: client 'b', variable 'X': the size D = -1 in its type matrix[N, D] "
                                "is negative (D from data.json)");
}

TEST_F(CsvPartitionsTest, ColumnNamesThatDoNotFit) {
  DataInputError matrixAsOne = error("client,y,X,z\n1,1,1,1\n2,2,2,0\n");
  EXPECT_EQ(matrixAsOne.kind(), DataErrorKind::Shape);
  EXPECT_STREQ(matrixAsOne.what(), "clients.csv:1: variable 'X': the column 'X' does not fit 'X' "
                                   "(matrix[N, D]): its values are in columns X.1, X.2, ... (1 index after the name, "
                                   "the row is the first index)");
  DataInputError vectorIndexed = error("client,y.1,X.1,X.2,z\n1,1,1,1,1\n2,2,2,2,0\n");
  EXPECT_TRUE(contains(vectorIndexed.what(), "the column 'y.1' does not fit 'y' (vector[N]): its values are one "
                                             "column named 'y'"))
      << vectorIndexed.what();
  for (const char* bad : {"X.0", "X.a", "X.01", "X.", "X.1.x"}) {
    DataInputError e = error(std::string("client,y,") + bad + ",X.2,z\n1,1,1,1,1\n2,2,2,2,0\n");
    EXPECT_EQ(e.kind(), DataErrorKind::Unexpected) << bad;
    EXPECT_EQ(e.where().field, bad);
    EXPECT_TRUE(contains(e.what(), "a column name must have 1-based indices, such as X.3")) << e.what();
  }
}

TEST_F(CsvPartitionsTest, NonNumericValueSuggestsAMapping) {
  DataInputError e = error("client,y,X.1,X.2,z\n1,1,1,1,yes\n1,1,1,1,no\n2,2,2,2,no\n");
  EXPECT_EQ(e.kind(), DataErrorKind::Type);
  EXPECT_EQ(e.where().line, 2u);
  EXPECT_STREQ(e.what(), "clients.csv:2: client '1', variable 'z': the value \"yes\" is not a number; if column 'z' "
                         "holds categories, give it an explicit categorical mapping to integers, e.g. --map "
                         "z=no:0,yes:1");
  DataInputError inMatrix = error("client,y,X.1,X.2,z\n1,1,1,1,1\n2,2,2,abc,0\n");
  EXPECT_STREQ(inMatrix.what(), "clients.csv:3: client '2', variable 'X', column 'X.2': the value \"abc\" is not a "
                                "number; if column 'X.2' holds categories, give it an explicit categorical mapping "
                                "to integers, e.g. --map X.2=abc:0");
}

TEST_F(CsvPartitionsTest, CategoricalMappings) {
  const char* csv = "client,y,X.1,X.2,z\n1,1,1,1,yes\n1,1,1,1,no\n2,2,2,2, no\n";
  BoundData d = load(csv, {parseCategoricalMapping("z=yes:1,no:0")});
  EXPECT_EQ(d.partitions[0].intAt(3, 0), 1);
  EXPECT_EQ(d.partitions[0].intAt(3, 1), 0);
  EXPECT_EQ(d.partitions[1].intAt(3, 0), 0);
  // A real column may be mapped too; the integer becomes a real.
  BoundData r = load("client,y,X.1,X.2,z\n1,lo,1,1,1\n2,hi,2,2,0\n", {parseCategoricalMapping("y=lo:-1,hi:1")});
  EXPECT_EQ(r.partitions[0].realAt(2, 0), -1.0);
  DataInputError unmapped = error("client,y,X.1,X.2,z\n1,1,1,1,yes\n2,2,2,2,maybe\n", {parseCategoricalMapping("z=yes:1,no:0")});
  EXPECT_EQ(unmapped.kind(), DataErrorKind::Mapping);
  EXPECT_STREQ(unmapped.what(), "clients.csv:3: client '2', variable 'z': the value \"maybe\" is not in the "
                                "categorical mapping of column 'z' (which maps \"yes\", \"no\")");
  // Every value of a mapped column must be a label: numbers are not passed through.
  DataInputError number = error("client,y,X.1,X.2,z\n1,1,1,1,yes\n2,2,2,2,1\n", {parseCategoricalMapping("z=yes:1,no:0")});
  EXPECT_EQ(number.kind(), DataErrorKind::Mapping);
  DataInputError onPartition = error(kPartitionsCsv, {parseCategoricalMapping("client=a:1,b:2")});
  EXPECT_TRUE(contains(onPartition.what(), "the partition column 'client' needs no categorical mapping"));
}

TEST_F(CsvPartitionsTest, IntsAreNotCoerced) {
  DataInputError e = error("client,y,X.1,X.2,z\n1,1,1,1,1.0\n2,2,2,2,0\n");
  EXPECT_EQ(e.kind(), DataErrorKind::Type);
  EXPECT_STREQ(e.what(), "clients.csv:2: client '1', variable 'z': 'z' is an int (array[N] int<lower=0, upper=1>), "
                         "but the value is \"1.0\" (ints are written without a decimal point or exponent)");
  EXPECT_TRUE(contains(error("client,y,X.1,X.2,z\n1,1,1,1,99999999999999999999\n2,2,2,2,0\n").what(),
                       "out of the int range"));
  // Reals may be written as ints, with exponents, and as Inf.
  BoundData d = load("client,y,X.1,X.2,z\n1,2,1e-3,Inf,1\n2,2,2,2,0\n");
  EXPECT_EQ(d.partitions[0].realAt(1, 0), 1e-3);
}

TEST_F(CsvPartitionsTest, MissingValuesAndNaN) {
  DataInputError empty = error("client,y,X.1,X.2,z\n1,1,1,1,1\n2,,2,2,0\n");
  EXPECT_EQ(empty.kind(), DataErrorKind::Value);
  EXPECT_STREQ(empty.what(), "clients.csv:3: client '2', variable 'y': empty value: the model's data cannot have "
                             "missing values (remove or impute them first)");
  DataInputError na = error("client,y,X.1,X.2,z\n1,1,1,NA,1\n2,2,2,2,0\n");
  EXPECT_TRUE(contains(na.what(), "clients.csv:2: client '1', variable 'X', column 'X.2': missing value \"NA\""));
  DataInputError nan = error("client,y,X.1,X.2,z\n1,1,1,1,1\n2,NaN,2,2,0\n");
  EXPECT_EQ(nan.kind(), DataErrorKind::Value);
  EXPECT_TRUE(contains(nan.what(), "clients.csv:3: client '2', variable 'y': the value is NaN")) << nan.what();
}

TEST_F(CsvPartitionsTest, MalformedFiles) {
  DataInputError ragged = error("client,y,X.1,X.2,z\n1,1,1,1,1\n2,2,2,0\n");
  EXPECT_EQ(ragged.kind(), DataErrorKind::Syntax);
  EXPECT_EQ(ragged.where().line, 3u);
  DataInputError quote = error("client,y,X.1,X.2,z\n1,1,1,1,1\n2,\"2,2,2,0\n");
  EXPECT_TRUE(contains(quote.what(), "clients.csv:3:3: malformed CSV: unterminated quoted field")) << quote.what();
  DataInputError dup = error("client,y,X.1,X.1,z\n1,1,1,1,1\n2,2,2,2,0\n");
  EXPECT_STREQ(dup.what(), "clients.csv:1: the header names column 'X.1' twice (columns 3 and 4)");
  EXPECT_TRUE(contains(error("client,y,,X.2,z\n1,1,1,1,1\n2,2,2,2,0\n").what(), "column 3 of the header has no name"));
  DataInputError noRows = error("client,y,X.1,X.2,z\n");
  EXPECT_EQ(noRows.kind(), DataErrorKind::Partition);
  EXPECT_STREQ(noRows.what(), "clients.csv:1: the CSV file has a header but no rows");
  DataInputError latin1 = error("client,y,X.1,X.2,z\n1,1,1,1,1\nZ\xFCrich,2,2,2,0\n");
  EXPECT_EQ(latin1.kind(), DataErrorKind::Encoding);
  EXPECT_EQ(latin1.where().line, 3u);
}

// Six cities' shape: a per-partition scalar column constant within each partition, and N inferred.
const char* kSilos = R"(
@partition(silo)
data { real<lower=0> sd; }
data per silo {
  int<lower=0> C;
  int<lower=0> N;
  array[N] int<lower=1, upper=C> child;
  vector[N] age;
}
global { real mu; }
local per silo { vector[C] b; }
model { mu ~ normal(0, sd); b ~ normal(mu, 1); age ~ normal(b[child], 1); }
)";

TEST(CsvConstants, ScalarColumnsAreConstantWithinAPartition) {
  DataSchema s = schemaOf(kSilos);
  DataTexts t;
  t.sharedJson = text("data.json", R"({"sd": 10})");
  t.partitionCsv = text("silos.csv", "silo,C,child,age\nA,2,1,-1\nA,2,2,0\nA,2,2,1\nB,1,1,0\n");
  BoundData d = loadDataTexts(s, t);
  ASSERT_EQ(d.partitions.size(), 2u);
  EXPECT_EQ(d.partitions[0].intAt(0, 0), 2);  // C from its column
  EXPECT_EQ(d.partitions[0].intAt(1, 0), 3);  // N: the row count
  EXPECT_EQ(d.partitions[1].intAt(1, 0), 1);
  EXPECT_EQ(d.partitions[0].intAt(2, 2), 2);
  EXPECT_EQ(d.origins->describe(0, 0, 0), "C from silos.csv line 2, column 'C'");

  t.partitionCsv = text("silos.csv", "silo,C,child,age\nA,2,1,-1\nA,2,2,0\nA,3,2,1\nB,1,1,0\n");
  DataInputError e = dataError([&] { loadDataTexts(s, t); });
  EXPECT_EQ(e.kind(), DataErrorKind::Value);
  EXPECT_EQ(e.where().line, 4u);
  EXPECT_STREQ(e.what(), "silos.csv:4: silo 'A', variable 'C': 'C' (int<lower=0>) must be constant within silo 'A', "
                         "but this row has \"3\" and line 2 has \"2\"");

  // N given as a column must agree with the row count.
  t.partitionCsv = text("silos.csv", "silo,C,N,child,age\nA,2,3,1,-1\nA,2,3,2,0\nB,1,1,1,0\n");
  DataInputError n = dataError([&] { loadDataTexts(s, t); });
  EXPECT_EQ(n.kind(), DataErrorKind::Shape);
  EXPECT_STREQ(n.what(), "silos.csv:2: silo 'A', variable 'child': silo 'A' has 2 rows, but 'child' (array[N] "
                         "int<lower=1, upper=C>) needs N = 3 rows");

  // C is no row count: it cannot be inferred.
  t.partitionCsv = text("silos.csv", "silo,child,age\nA,1,-1\nB,1,0\n");
  DataInputError c = dataError([&] { loadDataTexts(s, t); });
  EXPECT_EQ(c.kind(), DataErrorKind::Missing);
  EXPECT_TRUE(contains(c.what(), "no column for 'C' (int<lower=0>, a column 'C')")) << c.what();
}

TEST(CsvConstants, ContainersNotIndexedByRowAreConstantToo) {
  DataSchema s = schemaOf(R"(
@partition(client)
data { int<lower=1> D; }
data per client { int<lower=0> N; vector[D] m; vector[N] y; }
global { real mu; }
model { mu ~ normal(0, 1); y ~ normal(mu + sum(m), 1); }
)");
  DataTexts t;
  t.sharedJson = text("data.json", R"({"D": 2})");
  t.partitionCsv = text("c.csv", "client,m.1,m.2,y\n1,0.5,7,1\n1,0.5,7,2\n2,1,2,3\n");
  BoundData d = loadDataTexts(s, t);
  EXPECT_EQ(d.partitions[0].length(1), 2u);
  EXPECT_EQ(d.partitions[0].realAt(1, 1), 7.0);
  EXPECT_EQ(d.partitions[1].realAt(1, 0), 1.0);
  EXPECT_EQ(d.origins->describe(0, 1, 1), "m[2] from c.csv line 2, column 'm.2'");
  t.partitionCsv = text("c.csv", "client,m.1,m.2,y\n1,0.5,7,1\n1,0.5,8,2\n2,1,2,3\n");
  DataInputError e = dataError([&] { loadDataTexts(s, t); });
  EXPECT_TRUE(contains(e.what(), "c.csv:3: client '1', variable 'm', column 'm.2': 'm' (vector[D]) must be constant "
                                 "within client '1'"))
      << e.what();
}

}  // namespace
}  // namespace pvi::test
