// Truncated and mutated versions of every example's data files never crash the loader: every
// failure is a DataInputError whose message says where: the CSV file and line (and the column of
// a bad value), or the JSON file with the line and column of a syntax error or the path of the
// element (variable, index) at fault. Whatever loads binds, or is refused with a DataError that
// names the element's origin (file, and for CSV the line).
#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <regex>
#include <set>

#include "../codegen/model_harness.hpp"
#include "data_test_support.hpp"

namespace pvi::test {
namespace {

struct Case {
  std::string example;
  std::string csv;  // relative to examples/
  int trials;
};

const std::vector<Case> kCases = {
    {"bnn_classifier", "logistic_regression/data_per_client.csv", 6},  // the README: logistic_regression's CSV
    {"clutter", "clutter/data_per_client.csv", 150},
    {"digits_hierarchical_bnn", "digits_hierarchical_bnn/data_per_silo.csv", 8},
    {"ep_hierarchical_logistic", "ep_hierarchical_logistic/data_per_group.csv", 100},
    {"hierarchical_logistic", "hierarchical_logistic/data_per_district.csv", 80},
    {"linear_regression", "linear_regression/data_per_client.csv", 100},
    {"logistic_regression", "logistic_regression/data_per_client.csv", 8},
    {"poisson_random_effect", "poisson_random_effect/data_per_group.csv", 100},
    {"six_cities", "six_cities/data_per_silo.csv", 100},
};

// An upper bound on the line numbers a message about `text` may name: CSV records end at LF,
// CRLF or CR; JSON and encoding positions count LF only.
size_t lineCount(const std::string& text) {
  size_t n = 1;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++n;
  return n;
}

const DataField* fieldOf(const std::vector<DataField>& fields, const std::string& name) {
  for (const DataField& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

// "the file is UTF-16 (byte order mark)": a whole-file problem, without a line.
bool byteOrderMark(const DataInputError& e) { return e.detail().rfind("the file is UTF-", 0) == 0; }

// A refusal of the CSV file: FILE:LINE, a line of the file; a bad value also names its column.
void checkCsvError(const DataInputError& e, const std::string& csv) {
  const std::string what = e.what();
  const DataLocation& w = e.where();
  // Only the whole file's problems have no line: empty, blank, no header, UTF-16/32.
  if (e.kind() == DataErrorKind::File || (e.kind() == DataErrorKind::Encoding && byteOrderMark(e))) {
    EXPECT_EQ(what.rfind("part.csv: ", 0), 0u) << what;
    return;
  }
  ASSERT_GT(w.line, 0u) << what;
  EXPECT_LE(w.line, lineCount(csv)) << what;
  EXPECT_EQ(what.rfind("part.csv:" + std::to_string(w.line) + ":", 0), 0u) << what;
  if (e.kind() == DataErrorKind::Type || e.kind() == DataErrorKind::Value || e.kind() == DataErrorKind::Mapping) {
    EXPECT_FALSE(w.field.empty()) << what;
    // The column is named, or it is the variable's own (column 'y' of variable 'y').
    EXPECT_TRUE(contains(what, "column " + named(w.field)) ||
                (w.field == w.variable && contains(what, "variable " + named(w.variable))))
        << what;
  }
}

// A refusal of the shared JSON file: syntax errors at FILE:LINE:COLUMN, anything else names the
// variable, and a bad value its element (X[2, 3]).
void checkJsonError(const DataInputError& e, const std::string& json, const DataSchema& schema) {
  const std::string what = e.what();
  const DataLocation& w = e.where();
  ASSERT_EQ(w.file, "data.json") << what;
  switch (e.kind()) {
    case DataErrorKind::File:
      return;  // empty or blank
    case DataErrorKind::Encoding:
    case DataErrorKind::Syntax:
      if (byteOrderMark(e) || contains(e.detail(), "must be an object")) return;
      if (!w.variable.empty()) {  // a repeated key
        EXPECT_TRUE(contains(e.detail(), "the key " + named(w.variable) + " appears more than once")) << what;
        return;
      }
      ASSERT_GT(w.line, 0u) << what;
      ASSERT_GT(w.column, 0u) << what;
      EXPECT_LE(w.line, lineCount(json)) << what;
      EXPECT_EQ(what.rfind("data.json:" + std::to_string(w.line) + ":" + std::to_string(w.column) + ": ", 0), 0u)
          << what;
      return;
    case DataErrorKind::Unexpected:  // the key named, even an empty one: "the key '' is not declared"
      EXPECT_EQ(fieldOf(schema.shared, w.variable), nullptr) << what;
      EXPECT_TRUE(contains(e.detail(), named(w.variable))) << what;
      return;
    default: {  // Missing, Shape: the variable; Type, Value, Mapping: also the element
      ASSERT_FALSE(w.variable.empty()) << what;
      const DataField* f = fieldOf(schema.shared, w.variable);
      if (f == nullptr) {  // a number out of range under a mangled key: that key and the element
        EXPECT_EQ(e.kind(), DataErrorKind::Value) << what;
        EXPECT_TRUE(contains(e.detail(), "'" + w.variable + "'") || contains(e.detail(), w.variable + "[")) << what;
        return;
      }
      EXPECT_TRUE(contains(what, "variable " + named(f->name))) << what;
      if (e.kind() != DataErrorKind::Type && e.kind() != DataErrorKind::Value && e.kind() != DataErrorKind::Mapping)
        return;
      const bool element = contains(e.detail(), f->name + "[");
      // A wrong value inside a container is named by its indices (a number too large for a double
      // may stand where the whole container should: then by the name).
      if (f->rank() > 0 && e.kind() != DataErrorKind::Value) EXPECT_TRUE(element) << what;
      else EXPECT_TRUE(element || contains(e.detail(), "'" + f->name + "'")) << what;
    }
  }
}

// A refusal after loading (CompiledModel's bound checks) ends with the element's origin.
void checkBindError(const std::string& what, const std::string& csv) {
  static const std::regex origin("; at [A-Za-z_][A-Za-z0-9_]*(\\[[0-9, ]+\\])? from (part\\.csv line ([0-9]+), column "
                                 "'[^']+'|data\\.json)$");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(what, m, origin)) << what;
  if (m[3].matched) {
    EXPECT_GT(std::stoul(m[3]), 0u) << what;
    EXPECT_LE(std::stoul(m[3]), lineCount(csv)) << what;
  }
}

class Robustness : public ::testing::TestWithParam<Case> {};

TEST_P(Robustness, TruncatedAndMutatedFiles) {
  const Case& k = GetParam();
  Compiled c = compileModel(readExample(k.example));
  ASSERT_TRUE(c.jit) << c.errors;
  const ModelInfo& info = c.lowered->info;
  auto sharedPath = exampleDir(k.example) / "data.json";
  std::optional<std::string> shared;
  if (std::filesystem::exists(sharedPath)) shared = readText(sharedPath);
  std::string csv = readText(sourceDir() / "examples" / k.csv);

  std::mt19937_64 rng(12345);
  size_t loaded = 0, refused = 0, bindRefused = 0;
  std::set<DataErrorKind> kinds;
  auto attempt = [&](const std::optional<std::string>& s, const std::string& p) {
    DataTexts t;
    if (s) t.sharedJson = text("data.json", *s);
    t.partitionCsv = text("part.csv", p);
    try {
      BoundData d = loadDataTexts(info.data, t);
      ++loaded;
      try {
        CompiledModel m(c.jit->code(), info, d.shared, d.partitions, d.labels, d.locator());
      } catch (const DataError& e) {
        ++bindRefused;
        checkBindError(e.what(), p);
      }
    } catch (const DataInputError& e) {
      ++refused;
      kinds.insert(e.kind());
      EXPECT_GT(e.detail().size(), 10u) << e.what();
      if (e.where().file == "part.csv") checkCsvError(e, p);
      else if (e.where().file == "data.json" && s) checkJsonError(e, *s, info.data);
      else ADD_FAILURE() << "no file named: " << e.what();
    }
  };
  auto mutate = [&](std::string s) {
    static const std::string junk[] = {",", "\"", "\n", "\r\n", "x", "NaN", "-", "1e999", "\xC3", "\xFF", "[", "]",
                                       "{", "}", ".", "", "  ", "1.5", std::string(1, '\0'), "-1e-300", "/", ".."};
    size_t edits = 1 + rng() % 3;
    for (size_t e = 0; e < edits && !s.empty(); ++e) {
      size_t at = rng() % s.size();
      const std::string& j = junk[rng() % std::size(junk)];
      switch (rng() % 3) {
        case 0: s.insert(at, j); break;
        case 1: s.erase(at, 1 + rng() % 8); break;
        default: s.replace(at, 1, j); break;
      }
    }
    return s;
  };
  // A value made -9 (prefixing a number's first digit): still well-formed, often out of bounds.
  auto negate = [&](std::string s) {
    for (int tries = 0; tries < 1000 && !s.empty(); ++tries) {
      size_t at = rng() % s.size();
      if (at > 0 && std::string_view(",:[ \n").find(s[at - 1]) != std::string_view::npos && std::isdigit(static_cast<unsigned char>(s[at]))) {
        s.insert(at, "-9");
        break;
      }
    }
    return s;
  };
  for (int i = 0; i < k.trials; ++i) {
    // Truncations of either file, then mutations of either file.
    size_t cut = rng() % (csv.size() + 1);
    attempt(shared, csv.substr(0, cut));
    size_t line = csv.find('\n', cut);  // fewer rows: still valid data
    attempt(shared, csv.substr(0, line == std::string::npos ? csv.size() : line + 1));
    if (shared) attempt(shared->substr(0, rng() % (shared->size() + 1)), csv);
    attempt(shared, mutate(csv));
    if (shared) attempt(mutate(*shared), csv);
  }
  for (int i = 0; i < 40; ++i) {  // enough for a bounded value among the 57 features of a row
    if (shared && i % 2) attempt(negate(*shared), csv);
    else attempt(shared, negate(csv));
  }
  // Both outcomes occur, and refusals of more than one kind: the test is not vacuous.
  EXPECT_GT(refused, 0u);
  EXPECT_GT(loaded, 0u);
  EXPECT_GE(kinds.size(), 2u);
  EXPECT_GT(bindRefused, 0u);  // CompiledModel's bound checks ran and named the origins
}

INSTANTIATE_TEST_SUITE_P(Examples, Robustness, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.example; });

// Every example with data is in kCases, and every data file under examples/*/ is exercised.
TEST(RobustnessCases, CoverEveryExamplesData) {
  std::set<std::string> examples, csvs;
  for (const Case& k : kCases) {
    examples.insert(k.example);
    csvs.insert(k.csv);
  }
  size_t withData = 0;
  for (const auto& dir : std::filesystem::directory_iterator(sourceDir() / "examples")) {
    if (!dir.is_directory() || !std::filesystem::exists(dir.path() / "model.pvi")) continue;
    const std::string name = dir.path().filename().string();
    bool hasData = false;
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      const std::string ext = f.path().extension().string();
      if (ext == ".csv") {
        hasData = true;
        EXPECT_TRUE(csvs.count(name + "/" + f.path().filename().string())) << f.path();
      }
      if (ext == ".json") {
        hasData = true;
        EXPECT_TRUE(examples.count(name)) << f.path();  // its data.json is the shared file of its case
      }
    }
    if (hasData) {
      ++withData;
      EXPECT_TRUE(examples.count(name)) << name;
    }
  }
  EXPECT_EQ(withData, kCases.size());
}

}  // namespace
}  // namespace pvi::test
