// Truncated and mutated versions of the examples' data files never crash the loader: every
// failure is a DataInputError with a message, and whatever loads binds or is refused with a
// DataError.
#include <gtest/gtest.h>

#include <random>

#include "../codegen/model_harness.hpp"
#include "data_test_support.hpp"

namespace pvi::test {
namespace {

struct Case {
  std::string example;
  std::string csv;
  int trials;
};

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
  size_t loaded = 0, refused = 0;
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
        EXPECT_GT(std::string(e.what()).size(), 10u);
      }
    } catch (const DataInputError& e) {
      ++refused;
      EXPECT_GT(e.detail().size(), 10u) << e.what();
      EXPECT_FALSE(e.where().file.empty() && e.kind() != DataErrorKind::Partition && e.kind() != DataErrorKind::Missing)
          << e.what();
    }
  };
  auto mutate = [&](std::string s) {
    static const std::string junk[] = {",", "\"", "\n", "\r\n", "x", "NaN", "-", "1e999", "\xC3", "\xFF", "[", "]",
                                       "{", "}", ".", "", "  ", "1.5", "\0"};
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
  // Both outcomes occur: the test is not vacuous.
  EXPECT_GT(refused, 0u);
  EXPECT_GT(loaded, 0u);
}

INSTANTIATE_TEST_SUITE_P(Examples, Robustness,
                         ::testing::Values(Case{"clutter", "clutter/data_per_client.csv", 150},
                                           Case{"six_cities", "six_cities/data_per_silo.csv", 100},
                                           Case{"linear_regression", "linear_regression/data_per_client.csv", 100},
                                           Case{"poisson_random_effect", "poisson_random_effect/data_per_group.csv", 100},
                                           Case{"logistic_regression", "logistic_regression/data_per_client.csv", 8}),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.example; });

}  // namespace
}  // namespace pvi::test
