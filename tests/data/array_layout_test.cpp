// Arrays of vectors and multi-dimensional arrays bound from JSON and CSV land where generated
// code reads them: generated quantities that pick single elements return the values written in
// the files, and a refused element is named by its own indices.
#include <gtest/gtest.h>

#include "stdlib/kernels/rng/rng.h"
#include "model_harness.hpp"
#include "runtime/data/LoadData.hpp"

namespace pvi::test {
namespace {

const char* kArrayModel = R"(
@partition(site)
data { array[2] vector[3] mu0; array[2, 3] real A; }
data per site { int N; array[N] vector[2] y; }
global { real a; }
model { a ~ normal(0, 1); }
generated {
  real mu0_21 = mu0[2][1];
  real mu0_13 = mu0[1][3];
  real A_12 = A[1, 2];
  real A_21 = A[2, 1];
}
)";

TEST(ArrayLayout, JsonAndCsvValuesReachGeneratedCodeByIndex) {
  Compiled c = compileModel(kArrayModel);
  ASSERT_TRUE(c.jit) << c.errors;
  DataTexts texts;
  texts.sharedJson = SourceText{"shared.json", R"({"mu0": [[11, 12, 13], [21, 22, 23]],
                                                   "A": [[1.1, 1.2, 1.3], [2.1, 2.2, 2.3]]})"};
  texts.partitionCsv = SourceText{"sites.csv", "site,y.1,y.2\nn,1,2\nn,3,4\ns,5,6\n"};
  BoundData d = loadDataTexts(c.lowered->info.data, texts);
  CompiledModel m(c.jit->code(), c.lowered->info, d.shared, d.partitions, d.labels, d.locator());
  double a = 0.0;
  pvi_rng draws;
  pvi_rng_seed(&draws, 1, 0);
  std::vector<double> g = m.generateShared(&a, nullptr, draws);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0], 21);
  EXPECT_EQ(g[1], 13);
  EXPECT_EQ(g[2], 1.2);
  EXPECT_EQ(g[3], 2.1);
  // Per-partition: y[n] is row n's (y.1, y.2), contiguous.
  ASSERT_EQ(d.partitions.size(), 2u);
  EXPECT_EQ(d.partitions[0].realAt(1, 0), 1);
  EXPECT_EQ(d.partitions[0].realAt(1, 1), 2);
  EXPECT_EQ(d.partitions[0].realAt(1, 2), 3);
  EXPECT_EQ(d.partitions[0].realAt(1, 3), 4);
}

TEST(ArrayLayout, RefusedElementsAreNamedByTheirIndices) {
  Compiled c = compileModel(R"(
@partition(site)
data { array[2] vector<lower=0>[3] v; }
data per site { int N; array[N] vector<lower=0>[2] y; }
global { real a; }
model { a ~ normal(0, 1); }
)");
  ASSERT_TRUE(c.jit) << c.errors;
  DataTexts texts;
  texts.sharedJson = SourceText{"shared.json", R"({"v": [[1, 2, 3], [4, -5, 6]]})"};
  texts.partitionCsv = SourceText{"sites.csv", "site,y.1,y.2\nn,1,2\nn,3,4\ns,5,6\n"};
  BoundData d = loadDataTexts(c.lowered->info.data, texts);
  try {
    CompiledModel m(c.jit->code(), c.lowered->info, d.shared, d.partitions, d.labels, d.locator());
    FAIL() << "a negative value was accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("v[2, 2]"), std::string::npos) << e.what();
  }
  texts.sharedJson = SourceText{"shared.json", R"({"v": [[1, 2, 3], [4, 5, 6]]})"};
  texts.partitionCsv = SourceText{"sites.csv", "site,y.1,y.2\nn,1,2\nn,3,-4\ns,5,6\n"};
  d = loadDataTexts(c.lowered->info.data, texts);
  try {
    CompiledModel m(c.jit->code(), c.lowered->info, d.shared, d.partitions, d.labels, d.locator());
    FAIL() << "a negative value was accepted";
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("y[2, 2]"), std::string::npos) << what;
    EXPECT_NE(what.find("sites.csv line 3"), std::string::npos) << what;
    EXPECT_NE(what.find("column 'y.2'"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace pvi::test
