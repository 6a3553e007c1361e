// Every example's bundled data load, bind to its JIT-compiled model, and hold the values of the
// files, checked against an independent reading of the files in this test; the same data as one
// JSON file per partition bind to the same blocks.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../codegen/model_harness.hpp"
#include "data_test_support.hpp"

namespace pvi::test {
namespace {

struct Example {
  std::string name;
  std::string csv;    // relative to examples/
  size_t partitions;  // as the example's README says
};

// The example data files have no quoted fields, so a plain split reads them.
struct PlainCsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

PlainCsv readPlainCsv(const std::string& text) {
  EXPECT_EQ(text.find('"'), std::string::npos);
  PlainCsv out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream ls(line);
    std::string f;
    while (std::getline(ls, f, ',')) fields.push_back(f);
    if (out.header.empty()) out.header = fields;
    else out.rows.push_back(fields);
  }
  return out;
}

size_t fieldIndex(const std::vector<DataField>& fields, const std::string& name) {
  for (size_t k = 0; k < fields.size(); ++k)
    if (fields[k].name == name) return k;
  ADD_FAILURE() << "no variable " << name;
  return 0;
}

double valueAt(const DataBlock& b, size_t k, size_t i) {
  return b.isInt(k) ? static_cast<double>(b.intAt(k, i)) : b.realAt(k, i);
}

class Examples : public ::testing::TestWithParam<Example> {};

TEST_P(Examples, BundledDataLoadAndBind) {
  const Example& ex = GetParam();
  Compiled c = compileModel(readExample(ex.name));
  ASSERT_TRUE(c.jit) << c.errors;
  const ModelInfo& info = c.lowered->info;
  const DataSchema& schema = info.data;

  DataSources src;
  auto shared = exampleDir(ex.name) / "data.json";
  if (std::filesystem::exists(shared)) src.sharedJson = shared.string();
  auto csvPath = sourceDir() / "examples" / ex.csv;
  src.partitionCsv = csvPath.string();
  BoundData d = loadData(schema, src);
  ASSERT_EQ(d.partitions.size(), ex.partitions);
  ASSERT_EQ(d.labels.size(), ex.partitions);
  CompiledModel model(c.jit->code(), info, d.shared, d.partitions, d.labels, d.locator());
  EXPECT_EQ(model.numPartitions(), ex.partitions);

  // Shared data against the JSON file read with nlohmann: every element.
  if (src.sharedJson) {
    nlohmann::json j = nlohmann::json::parse(readText(shared));
    for (size_t k = 0; k < schema.shared.size(); ++k) {
      const DataField& f = schema.shared[k];
      const nlohmann::json& v = j.at(f.name);
      if (f.rank() == 0) {
        EXPECT_EQ(valueAt(d.shared, k, 0), v.get<double>()) << f.name;
      } else if (f.rank() == 1) {
        ASSERT_EQ(d.shared.length(k), v.size()) << f.name;
        for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(valueAt(d.shared, k, i), v[i].get<double>()) << f.name;
      } else {  // a matrix: an array of rows, stored column-major
        size_t rows = v.size();
        for (size_t r = 0; r < rows; ++r)
          for (size_t col = 0; col < v[r].size(); ++col)
            ASSERT_EQ(d.shared.realAt(k, r + rows * col), v[r][col].get<double>()) << f.name << "[" << r << "," << col << "]";
      }
    }
  }

  // Per-partition data against the CSV split by hand: labels in order of first appearance, row
  // counts, and the first and last row of every partition in every column.
  PlainCsv csv = readPlainCsv(readText(csvPath));
  size_t partCol = std::find(csv.header.begin(), csv.header.end(), schema.partitionName) - csv.header.begin();
  ASSERT_LT(partCol, csv.header.size());
  std::vector<std::string> labels;
  std::map<std::string, std::vector<size_t>> rowsOf;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    const std::string& l = csv.rows[r][partCol];
    if (!rowsOf.count(l)) labels.push_back(l);
    rowsOf[l].push_back(r);
  }
  EXPECT_EQ(d.labels, labels);
  for (size_t p = 0; p < labels.size(); ++p) {
    const DataBlock& b = d.partitions[p];
    const std::vector<size_t>& rows = rowsOf[labels[p]];
    size_t n = fieldIndex(schema.partition, "N");
    EXPECT_EQ(b.intAt(n, 0), static_cast<int64_t>(rows.size())) << labels[p];
    for (size_t col = 0; col < csv.header.size(); ++col) {
      if (col == partCol) continue;
      const std::string& name = csv.header[col];
      size_t dot = name.find('.');
      size_t k = fieldIndex(schema.partition, name.substr(0, dot));
      bool scalar = schema.partition[k].rank() == 0;
      size_t j = dot == std::string::npos ? 0 : std::stoul(name.substr(dot + 1)) - 1;
      for (size_t i : {size_t{0}, rows.size() - 1}) {
        double expected = std::stod(csv.rows[rows[i]][col]);
        size_t element = scalar ? 0 : i + rows.size() * j;
        EXPECT_EQ(valueAt(b, k, element), expected) << labels[p] << " " << name << " row " << i;
      }
    }
  }
}

// The same per-partition data written as one CmdStan JSON file per partition (by this test, from
// its own reading of the CSV) bind to the same blocks, labelled by the file stems.
TEST_P(Examples, PerPartitionJsonGivesTheSameBlocks) {
  const Example& ex = GetParam();
  DataSchema schema = schemaOf(readExample(ex.name));
  DataSources viaCsv;
  auto shared = exampleDir(ex.name) / "data.json";
  if (std::filesystem::exists(shared)) viaCsv.sharedJson = shared.string();
  viaCsv.partitionCsv = (sourceDir() / "examples" / ex.csv).string();
  BoundData a = loadData(schema, viaCsv);

  PlainCsv csv = readPlainCsv(readText(*viaCsv.partitionCsv));
  size_t partCol = std::find(csv.header.begin(), csv.header.end(), schema.partitionName) - csv.header.begin();
  std::vector<std::string> labels;
  std::map<std::string, std::vector<size_t>> rowsOf;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    if (!rowsOf.count(csv.rows[r][partCol])) labels.push_back(csv.rows[r][partCol]);
    rowsOf[csv.rows[r][partCol]].push_back(r);
  }
  auto dir = scratchDir("json");
  DataSources viaJson;
  viaJson.sharedJson = viaCsv.sharedJson;
  for (const std::string& label : labels) {
    const std::vector<size_t>& rows = rowsOf[label];
    nlohmann::json j = nlohmann::json::object();
    for (const DataField& f : schema.partition) {
      auto number = [&](const std::string& s) { return f.isInt ? nlohmann::json(std::stoll(s)) : nlohmann::json(std::stod(s)); };
      auto column = [&](const std::string& name) {
        return static_cast<size_t>(std::find(csv.header.begin(), csv.header.end(), name) - csv.header.begin());
      };
      if (f.rank() == 0) {
        size_t c = column(f.name);
        j[f.name] = c < csv.header.size() ? number(csv.rows[rows[0]][c]) : nlohmann::json(rows.size());
      } else if (f.shape == ValueShape::Matrix) {
        nlohmann::json m = nlohmann::json::array();
        for (size_t r : rows) {
          nlohmann::json row = nlohmann::json::array();
          for (size_t c = 1; column(f.name + "." + std::to_string(c)) < csv.header.size(); ++c)
            row.push_back(number(csv.rows[r][column(f.name + "." + std::to_string(c))]));
          m.push_back(row);
        }
        j[f.name] = m;
      } else {
        nlohmann::json v = nlohmann::json::array();
        for (size_t r : rows) v.push_back(number(csv.rows[r][column(f.name)]));
        j[f.name] = v;
      }
    }
    viaJson.partitionJson.push_back(writeFile(dir / (label + ".json"), j.dump()).string());
  }
  BoundData b = loadData(schema, viaJson);
  EXPECT_EQ(b.labels, a.labels);
  ASSERT_EQ(b.partitions.size(), a.partitions.size());
  for (size_t p = 0; p < a.partitions.size(); ++p) {
    ASSERT_EQ(b.partitions[p].size(), a.partitions[p].size());
    for (size_t k = 0; k < a.partitions[p].size(); ++k) {
      ASSERT_EQ(b.partitions[p].isInt(k), a.partitions[p].isInt(k));
      ASSERT_EQ(b.partitions[p].length(k), a.partitions[p].length(k)) << schema.partition[k].name;
      for (size_t i = 0; i < a.partitions[p].length(k); ++i)
        ASSERT_EQ(valueAt(b.partitions[p], k, i), valueAt(a.partitions[p], k, i))
            << a.labels[p] << " " << schema.partition[k].name << " " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, Examples,
    ::testing::Values(Example{"bnn_classifier", "logistic_regression/data_per_client.csv", 10},
                      Example{"clutter", "clutter/data_per_client.csv", 5},
                      Example{"digits_hierarchical_bnn", "digits_hierarchical_bnn/data_per_silo.csv", 10},
                      Example{"ep_hierarchical_logistic", "ep_hierarchical_logistic/data_per_group.csv", 16},
                      Example{"hierarchical_logistic", "hierarchical_logistic/data_per_district.csv", 60},
                      Example{"linear_regression", "linear_regression/data_per_client.csv", 5},
                      Example{"logistic_regression", "logistic_regression/data_per_client.csv", 10},
                      Example{"poisson_random_effect", "poisson_random_effect/data_per_group.csv", 8},
                      Example{"six_cities", "six_cities/data_per_silo.csv", 2}),
    [](const ::testing::TestParamInfo<Example>& i) { return i.param.name; });

// linear_regression with D = 0 in its data.json (found by mutating the examples' data): the CSV's
// three feature columns disagree with D, and the message names data.json, where D came from.
TEST(ExamplesLinearRegression, WrongSharedSizeNamesTheSharedFile) {
  DataSchema schema = schemaOf(readText(exampleDir("linear_regression") / "model.pvi"));
  std::filesystem::path dir = scratchDir("d");
  nlohmann::json shared = nlohmann::json::parse(readText(exampleDir("linear_regression") / "data.json"));
  shared["D"] = 0;
  DataSources src;
  src.sharedJson = writeFile(dir / "data.json", shared.dump()).string();
  src.partitionCsv = (exampleDir("linear_regression") / "data_per_client.csv").string();
  DataInputError e = dataError([&] { loadData(schema, src); });
  EXPECT_EQ(e.kind(), DataErrorKind::Shape);
  EXPECT_TRUE(contains(e.what(), "'X' has 3 columns, but its type matrix[N, D] needs D = 0 (D from " +
                                     *src.sharedJson + ")"))
      << e.what();
}

// Six cities: the local dimension of each silo is its C, read from the constant column.
TEST(ExamplesSixCities, LocalDimensionIsTheSilosChildren) {
  Compiled c = compileModel(readExample("six_cities"));
  ASSERT_TRUE(c.jit) << c.errors;
  DataSources src;
  src.sharedJson = (exampleDir("six_cities") / "data.json").string();
  src.partitionCsv = (exampleDir("six_cities") / "data_per_silo.csv").string();
  BoundData d = loadData(c.lowered->info.data, src);
  CompiledModel m(c.jit->code(), c.lowered->info, d.shared, d.partitions, d.labels, d.locator());
  PlainCsv csv = readPlainCsv(readText(*src.partitionCsv));
  for (size_t p = 0; p < 2; ++p) {
    // The first row of silo p + 1 holds its C.
    auto row = std::find_if(csv.rows.begin(), csv.rows.end(),
                            [&](const auto& r) { return r[0] == std::to_string(p + 1); });
    ASSERT_NE(row, csv.rows.end());
    EXPECT_EQ(m.localDim(p), std::stoul((*row)[1]));
  }
  EXPECT_EQ(m.localDim(0), 300u);  // the README: 300 and 237 children
  EXPECT_EQ(m.localDim(1), 237u);
}

}  // namespace
}  // namespace pvi::test
