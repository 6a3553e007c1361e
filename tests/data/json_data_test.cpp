// CmdStan JSON data: shapes, kinds, special values, and every refusal naming the file, the
// variable and the partition.
#include <gtest/gtest.h>

#include <cmath>

#include "data_test_support.hpp"

namespace pvi::test {
namespace {

const char* kJsonModel = R"(
@partition(client)
data {
  int<lower=1> D;
  real<lower=0> sd;
  int<lower=0> M;
  matrix[M, D] Z;
  array[M] int<lower=0, upper=1> t;
}
data per client {
  int<lower=0> N;
  matrix[N, D] X;
  array[N] int<lower=0, upper=1> y;
}
global { vector[D] beta; }
model { beta ~ normal(0, sd); y ~ bernoulli_logit(X * beta); }
)";

const char* kJsonShared = R"({"D": 3, "sd": 1, "M": 2, "Z": [[1, 2, 3], [4, 5, 6.5]], "t": [0, 1]})";
const char* kClient = R"({"N": 2, "X": [[1, 0, 0], [0, 1, 0]], "y": [1, 0]})";

class JsonData : public ::testing::Test {
 protected:
  void SetUp() override { schema_ = schemaOf(kJsonModel); }

  BoundData load(const std::string& shared, std::vector<std::string> clients = {kClient},
                 std::vector<CategoricalMapping> mappings = {}, DataOptions options = {}) {
    DataTexts t;
    t.sharedJson = text("data.json", shared);
    for (size_t j = 0; j < clients.size(); ++j)
      t.partitionJson.push_back(text("client_" + std::to_string(j + 1) + ".json", clients[j]));
    t.mappings = std::move(mappings);
    t.options = options;
    return loadDataTexts(schema_, t);
  }
  DataInputError sharedError(const std::string& shared) { return dataError([&] { load(shared); }); }
  DataInputError clientError(const std::string& client) { return dataError([&] { load(kJsonShared, {kClient, client}); }); }

  DataSchema schema_;
};

TEST_F(JsonData, ValuesAreStoredColumnMajor) {
  BoundData d = load(kJsonShared);
  ASSERT_EQ(d.shared.size(), 5u);
  EXPECT_EQ(d.shared.intAt(0, 0), 3);
  EXPECT_EQ(d.shared.realAt(1, 0), 1.0);  // a real may be written as an integer
  std::vector<double> z;
  for (size_t i = 0; i < d.shared.length(3); ++i) z.push_back(d.shared.realAt(3, i));
  EXPECT_EQ(z, (std::vector<double>{1, 4, 2, 5, 3, 6.5}));  // Z[m, d] at m + 2 d
  EXPECT_EQ(d.shared.intAt(4, 1), 1);
  ASSERT_EQ(d.partitions.size(), 1u);
  EXPECT_EQ(d.labels, (std::vector<std::string>{"client_1"}));  // default label: the file stem
  EXPECT_EQ(d.partitions[0].realAt(1, 3), 1.0);                 // X[2, 2]
  EXPECT_EQ(d.partitions[0].realAt(1, 2), 0.0);                 // X[1, 2]
}

TEST_F(JsonData, InfinitiesAreReals) {
  BoundData d = load(R"({"D": 1, "sd": "Inf", "M": 2, "Z": [["-Inf"], [0.5]], "t": [0, 1]})",
                     {R"({"N": 0, "X": [], "y": []})"}, {}, {.allowEmptyPartitions = true});
  EXPECT_EQ(d.shared.realAt(1, 0), INFINITY);
  EXPECT_EQ(d.shared.realAt(3, 0), -INFINITY);
  EXPECT_EQ(d.partitions[0].length(1), 0u);
}

TEST_F(JsonData, NaNIsRefused) {
  DataInputError e = sharedError(R"({"D": 3, "sd": "NaN", "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(e.kind(), DataErrorKind::Value);
  EXPECT_EQ(e.where().variable, "sd");
  EXPECT_STREQ(e.what(), "data.json: variable 'sd': 'sd' is NaN; the model's data cannot hold NaN (missing values "
                         "must be removed or imputed first)");
}

TEST_F(JsonData, IntGivenARealIsAnError) {
  DataInputError e = sharedError(R"({"D": 3.0, "sd": 1, "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(e.kind(), DataErrorKind::Type);
  EXPECT_STREQ(e.what(), "data.json: variable 'D': 'D' must be an int (int<lower=1>); got the number 3.0 "
                         "(ints are written without a decimal point or exponent)");
  DataInputError inArray = sharedError(R"({"D": 3, "sd": 1, "M": 2, "Z": [[1,2,3],[4,5,6]], "t": [0, 0.5]})");
  EXPECT_TRUE(contains(inArray.what(), "t[2] must be an int")) << inArray.what();
}

TEST_F(JsonData, WrongKindsOfValue) {
  EXPECT_TRUE(contains(sharedError(R"({"D": true, "sd": 1, "M": 0, "Z": [], "t": []})").what(), "got true"));
  EXPECT_TRUE(contains(sharedError(R"({"D": null, "sd": 1, "M": 0, "Z": [], "t": []})").what(), "got null"));
  EXPECT_TRUE(contains(sharedError(R"({"D": 3, "sd": {"a": 1}, "M": 0, "Z": [], "t": []})").what(), "got an object"));
  DataInputError s = sharedError(R"({"D": 3, "sd": "one", "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(s.kind(), DataErrorKind::Type);
  EXPECT_TRUE(contains(s.what(), "'sd' must be a real number (real<lower=0>); got a string \"one\"")) << s.what();
  DataInputError label = sharedError(R"({"D": 3, "sd": 1, "M": 1, "Z": [[1,2,3]], "t": ["spam"]})");
  EXPECT_TRUE(contains(label.what(), "categorical mapping, e.g. --map t=spam:1")) << label.what();
}

TEST_F(JsonData, OutOfRangeNumbers) {
  DataInputError big = sharedError(R"({"D": 99999999999999999999, "sd": 1, "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(big.where().variable, "D");
  DataInputError huge = sharedError(R"({"D": 9223372036854775808, "sd": 1, "M": 0, "Z": [], "t": []})");
  EXPECT_TRUE(contains(huge.what(), "out of the int range")) << huge.what();
  DataInputError overflow = sharedError(R"({"D": 3, "sd": 1e400, "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(overflow.kind(), DataErrorKind::Value);
  EXPECT_STREQ(overflow.what(), "data.json: variable 'sd': 'sd' is the number 1e400, out of the range of a double");
  // nlohmann gives no position: the element is named by tracking the parse.
  DataInputError inArray =
      sharedError(R"({"D": 3, "sd": 1, "M": 2, "Z": [[1, 2, 3], [4, -1e999, 6]], "t": [0, 1]})");
  EXPECT_STREQ(inArray.what(),
               "data.json: variable 'Z': Z[2, 2] is the number -1e999, out of the range of a double");
}

TEST_F(JsonData, MissingAndExtraVariables) {
  DataInputError missing = sharedError(R"({"D": 3, "M": 0, "Z": []})");
  EXPECT_EQ(missing.kind(), DataErrorKind::Missing);
  EXPECT_EQ(missing.where().variable, "sd");
  EXPECT_STREQ(missing.what(),
               "data.json: variable 'sd': missing variables 'sd' (real<lower=0>), 't' (array[M] int<lower=0, upper=1>) of data");
  // A misspelt key is ignored, and the variable it meant is missing: the message connects them.
  DataInputError misspelt = sharedError(R"({"D": 3, "sdd": 1, "M": 0, "Z": [], "T": []})");
  EXPECT_STREQ(misspelt.what(),
               "data.json: variable 'sd': missing variables 'sd' (real<lower=0>), 't' (array[M] int<lower=0, "
               "upper=1>) of data; did you mean 'sd' for the file's key 'sdd', 't' for the file's key 'T'?");
  DataInputError extra = sharedError(R"({"D": 3, "sd": 1, "M": 0, "Z": [], "t": [], "tau": 2, "N": 4})");
  EXPECT_EQ(extra.kind(), DataErrorKind::Unexpected);
  EXPECT_STREQ(extra.what(), "data.json: variable 'N': the keys 'N', 'tau' are not declared in data; 'N' is declared "
                             "in data per client, so it belongs in the per-client data");
  DataInputError wrongBlock = clientError(R"({"N": 1, "X": [[1,2,3]], "y": [1], "D": 3})");
  EXPECT_STREQ(wrongBlock.what(), "client_2.json: client 'client_2', variable 'D': the key 'D' is not declared in data "
                                  "per client; 'D' is declared in data, so it belongs in the shared data");
}

// As CmdStan: a key no data block declares is ignored, and the note says which; a shared variable
// in a partition's file (or the reverse) stays an error (MissingAndExtraVariables).
TEST_F(JsonData, UndeclaredKeysAreIgnoredWithANote) {
  BoundData d = load(R"({"D": 3, "sd": 1, "M": 2, "Z": [[1, 2, 3], [4, 5, 6.5]], "t": [0, 1], "tau": 2, "note": "x"})",
                     {kClient, R"({"N": 1, "X": [[1, 2, 3]], "y": [1], "weight": [0.5]})"});
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_EQ(d.notes[0], "data.json: ignored the keys 'note', 'tau', which the model does not declare (as CmdStan "
                        "ignores them)");
  EXPECT_EQ(d.notes[1], "client_2.json: ignored the key 'weight', which the model does not declare (as CmdStan "
                        "ignores it)");
  ASSERT_EQ(d.shared.size(), 5u);
  EXPECT_EQ(d.shared.intAt(0, 0), 3);
  EXPECT_TRUE(load(kJsonShared).notes.empty());
  // Many keys: the first eight named, the rest counted.
  std::string many = R"({"D": 3, "sd": 1, "M": 2, "Z": [[1, 2, 3], [4, 5, 6.5]], "t": [0, 1])";
  for (int k = 0; k < 10; ++k) many += ", \"k" + std::to_string(k) + "\": 0";
  const BoundData m = load(many + "}");
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "data.json: ignored the keys 'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7' and 2 more, which "
                        "the model does not declare (as CmdStan ignores them)");
}

TEST_F(JsonData, RaggedArrays) {
  DataInputError e = sharedError(R"({"D": 3, "sd": 1, "M": 2, "Z": [[1, 2, 3], [4, 5]], "t": [0, 1]})");
  EXPECT_EQ(e.kind(), DataErrorKind::Shape);
  EXPECT_STREQ(e.what(), "data.json: variable 'Z': ragged arrays: Z[2] has 2 entries, but Z[1] has 3");
}

TEST_F(JsonData, WrongNestingDepth) {
  DataInputError flat = sharedError(R"({"D": 3, "sd": 1, "M": 2, "Z": [1, 2, 3, 4, 5, 6], "t": [0, 1]})");
  EXPECT_EQ(flat.kind(), DataErrorKind::Shape);
  EXPECT_STREQ(flat.what(), "data.json: variable 'Z': 'Z' (matrix[M, D]) must be an array of rows (arrays of "
                            "numbers); Z[1] is the number 1, not an array");
  DataInputError deep = sharedError(R"({"D": 3, "sd": 1, "M": 1, "Z": [[1, 2, 3]], "t": [[0]]})");
  EXPECT_TRUE(contains(deep.what(), "t[1] is an array, one level of nesting too many")) << deep.what();
  DataInputError scalar = sharedError(R"({"D": [3], "sd": 1, "M": 0, "Z": [], "t": []})");
  EXPECT_TRUE(contains(scalar.what(), "'D' (int<lower=1>) must be a number; 'D' is an array")) << scalar.what();
  DataInputError notArray = sharedError(R"({"D": 3, "sd": 1, "M": 1, "Z": [[1,2,3]], "t": 1})");
  EXPECT_TRUE(contains(notArray.what(), "must be an array of numbers; got the number 1")) << notArray.what();
}

TEST_F(JsonData, LengthsAgainstDeclaredSizes) {
  DataInputError rows = sharedError(R"({"D": 3, "sd": 1, "M": 2, "Z": [[1, 2, 3]], "t": [0, 1]})");
  EXPECT_STREQ(rows.what(), "data.json: variable 'Z': 'Z' has 1 rows, but its type matrix[M, D] needs M = 2");
  DataInputError cols = sharedError(R"({"D": 2, "sd": 1, "M": 1, "Z": [[1, 2, 3]], "t": [0]})");
  EXPECT_TRUE(contains(cols.what(), "'Z' has 3 columns, but its type matrix[M, D] needs D = 2")) << cols.what();
  // Sizes of a partition's variables use the shared ints too.
  DataInputError part = clientError(R"({"N": 1, "X": [[1, 2]], "y": [1]})");
  EXPECT_STREQ(part.what(), "client_2.json: client 'client_2', variable 'X': 'X' has 2 columns, but its type "
                            "matrix[N, D] needs D = 3 (D from data.json)");
  DataInputError n = clientError(R"({"N": 3, "X": [[1, 2, 3]], "y": [1]})");
  EXPECT_TRUE(contains(n.what(), "'X' has 1 rows, but its type matrix[N, D] needs N = 3")) << n.what();
}

TEST_F(JsonData, MalformedJson) {
  DataInputError truncated = sharedError("{\"D\": 3,\n \"sd\": [1, 2");
  EXPECT_EQ(truncated.kind(), DataErrorKind::Syntax);
  EXPECT_EQ(truncated.where().line, 2u);
  EXPECT_EQ(truncated.where().column, 13u);  // just after the last character of line 2
  EXPECT_STREQ(truncated.what(), "data.json:2:13: malformed JSON: syntax error while parsing array - unexpected end of "
                                 "input; expected ']'");
  EXPECT_TRUE(contains(sharedError("{\"D\": 3,}").what(), "malformed JSON"));
  EXPECT_STREQ(sharedError(R"({"D": 3, "D": 4})").what(), "data.json: variable 'D': the key 'D' appears more than once");
  EXPECT_STREQ(sharedError("[1, 2]").what(),
               "data.json: CmdStan JSON data must be an object {\"name\": value, ...}; got an array");
}

TEST_F(JsonData, DeepNestingIsRefusedWithoutCrashing) {
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  DataInputError e = sharedError(R"({"D": )" + deep + R"(, "sd": 1, "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(e.kind(), DataErrorKind::Shape);
  EXPECT_TRUE(contains(e.what(), "'D' (int<lower=1>) must be a number; 'D' is an array")) << e.what();
  DataInputError open = sharedError(R"({"D": )" + std::string(200000, '['));
  EXPECT_EQ(open.kind(), DataErrorKind::Syntax);
}

TEST_F(JsonData, ZeroSizes) {
  BoundData d = load(R"({"D": 3, "sd": 1, "M": 0, "Z": [], "t": []})");
  EXPECT_EQ(d.shared.length(3), 0u);
  EXPECT_EQ(d.shared.length(4), 0u);
}

TEST_F(JsonData, CategoricalMappingOfAJsonVariable) {
  BoundData d = load(kJsonShared, {R"({"N": 2, "X": [[1, 0, 0], [0, 1, 0]], "y": ["spam", "ham"]})"},
                     {parseCategoricalMapping("y=spam:1,ham:0")});
  EXPECT_EQ(d.partitions[0].intAt(2, 0), 1);
  EXPECT_EQ(d.partitions[0].intAt(2, 1), 0);
  DataInputError unmapped = dataError([&] {
    load(kJsonShared, {R"({"N": 2, "X": [[1, 0, 0], [0, 1, 0]], "y": ["spam", "eggs"]})"},
         {parseCategoricalMapping("y=spam:1,ham:0")});
  });
  EXPECT_EQ(unmapped.kind(), DataErrorKind::Mapping);
  EXPECT_TRUE(contains(unmapped.what(), "y[2] is a string \"eggs\", which the categorical mapping of 'y' does not list"))
      << unmapped.what();
  DataInputError unused = dataError([&] { load(kJsonShared, {kClient}, {parseCategoricalMapping("label=a:1")}); });
  EXPECT_STREQ(unused.what(), "the categorical mapping of 'label' matches no CSV column and no JSON variable");
}

TEST_F(JsonData, PartitionFiles) {
  DataInputError empty = clientError("{}");
  EXPECT_EQ(empty.kind(), DataErrorKind::Partition);
  EXPECT_STREQ(empty.what(), "client_2.json: client 'client_2': no data: the JSON object is empty (data per client "
                             "declares 3 variables)");
  DataInputError none = clientError(R"({"N": 0, "X": [], "y": []})");
  EXPECT_EQ(none.kind(), DataErrorKind::Partition);
  EXPECT_TRUE(contains(none.what(), "client_2.json: client 'client_2': the partition is empty")) << none.what();

  DataTexts t;
  t.sharedJson = text("data.json", kJsonShared);
  t.partitionJson = {text("a/north.json", kClient), text("b/north.json", kClient)};
  DataInputError same = dataError([&] { loadDataTexts(schema_, t); });
  EXPECT_STREQ(same.what(), "b/north.json: the label 'north' is also the label of a/north.json; give each partition "
                            "its own label");
  t.partitionLabels = {"n1", "n2"};
  EXPECT_EQ(loadDataTexts(schema_, t).labels, (std::vector<std::string>{"n1", "n2"}));
  t.partitionLabels = {"n1"};
  EXPECT_STREQ(dataError([&] { loadDataTexts(schema_, t); }).what(),
               "1 partition labels were given for 2 JSON partition files");
}

TEST_F(JsonData, WhichSourcesAreNeeded) {
  DataTexts t;
  t.partitionJson = {text("c.json", kClient)};
  DataInputError noShared = dataError([&] { loadDataTexts(schema_, t); });
  EXPECT_EQ(noShared.kind(), DataErrorKind::Missing);
  EXPECT_STREQ(noShared.what(), "no shared data given: the model's data { } declares D, sd, M, Z, t (give them in a "
                                "CmdStan JSON file)");
  t.sharedJson = text("data.json", kJsonShared);
  t.partitionJson.clear();
  EXPECT_STREQ(dataError([&] { loadDataTexts(schema_, t); }).what(),
               "no per-client data given: the model is partitioned by 'client'; give one JSON file per client or a "
               "CSV file with a 'client' column");
  t.partitionJson = {text("c.json", kClient)};
  t.partitionCsv = text("c.csv", "client,y\n1,1\n");
  EXPECT_TRUE(contains(dataError([&] { loadDataTexts(schema_, t); }).what(), "not both"));

  DataSchema flat = schemaOf("data { real x; } global { real mu; } model { mu ~ normal(x, 1); }");
  DataTexts f;
  f.sharedJson = text("d.json", R"({"x": 1.5})");
  EXPECT_EQ(loadDataTexts(flat, f).shared.realAt(0, 0), 1.5);
  f.partitionJson = {text("c.json", "{}")};
  EXPECT_STREQ(dataError([&] { loadDataTexts(flat, f); }).what(),
               "per-partition data were given, but the model has no partition (no @partition)");
}

// Arrays of vectors and multi-dimensional arrays nest one level per index and are stored as
// generated code reads them: row-major over the array indices, each element contiguous
// (array_layout_test.cpp checks this against compiled code).
TEST(JsonNested, ArraysAreRowMajorWithContiguousElements) {
  DataSchema s;
  s.shared.push_back({.name = "K", .isInt = true, .isScalar = true, .type = "int"});
  s.shared.push_back({.name = "v", .shape = ValueShape::Vector, .arrayDims = {"2"}, .shapeDims = {"K"},
                      .type = "array[2] vector[K]"});
  s.shared.push_back({.name = "a", .isInt = true, .arrayDims = {"2", "2", "K - 1"}, .type = "array[2, 2, K - 1] int"});
  DataTexts t;
  t.sharedJson = text("d.json", R"({"K": 3, "v": [[1, 2, 3], [4, 5, 6]],
                                     "a": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]})");
  BoundData d = loadDataTexts(s, t);
  std::vector<double> v;
  for (size_t i = 0; i < 6; ++i) v.push_back(d.shared.realAt(1, i));
  EXPECT_EQ(v, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  std::vector<int64_t> a;
  for (size_t i = 0; i < 8; ++i) a.push_back(d.shared.intAt(2, i));
  EXPECT_EQ(a, (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));  // a[i, j, k] at k + 2 j + 4 i
  EXPECT_EQ(d.origins->describe(DataOrigins::kShared, 2, 5), "a[2, 1, 2] from d.json");

  t.sharedJson = text("d.json", R"({"K": 3, "v": [[1, 2, 3], [4, 5, 6]], "a": [[[1, 2], [3, 4]], [[5, 6], [7]]]})");
  EXPECT_STREQ(dataError([&] { loadDataTexts(s, t); }).what(),
               "d.json: variable 'a': ragged arrays: a[2, 2] has 1 entries, but a[1, 1] has 2");
  t.sharedJson = text("d.json", R"({"K": 3, "v": [[1, 2], [4, 5]], "a": []})");
  EXPECT_STREQ(dataError([&] { loadDataTexts(s, t); }).what(),
               "d.json: variable 'v': 'v' has 2 entries along index 2, but its type array[2] vector[K] needs K = 3");
}

}  // namespace
}  // namespace pvi::test
