// Bounds are checked by CompiledModel after binding; with the loader's locator its messages name
// the file, the CSV line and column, and the element.
#include <gtest/gtest.h>

#include "../codegen/model_harness.hpp"
#include "data_test_support.hpp"

namespace pvi::test {
namespace {

const char* kBoundsModel = R"(
@partition(client)
data { int<lower=1> D; real<lower=0> sigma; }
data per client {
  int<lower=0> N;
  matrix[N, D] X;
  vector<lower=-5, upper=5>[N] y;
  array[N] int<lower=0, upper=1> z;
}
global { vector[D] beta; }
model { beta ~ normal(0, 1); y ~ normal(X * beta, sigma); z ~ bernoulli_logit(X * beta); }
)";

class BoundErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    c_ = compileModel(kBoundsModel);
    ASSERT_TRUE(c_.jit) << c_.errors;
  }
  std::string bind(const std::string& shared, const std::string& csv, bool withLocator = true) {
    DataTexts t;
    t.sharedJson = text("data.json", shared);
    t.partitionCsv = text("clients.csv", csv);
    BoundData d = loadDataTexts(c_.lowered->info.data, t);
    try {
      CompiledModel m(c_.jit->code(), c_.lowered->info, d.shared, d.partitions, d.labels,
                      withLocator ? d.locator() : DataLocator{});
    } catch (const DataError& e) {
      return e.what();
    }
    return "accepted";
  }
  Compiled c_;
};

const char* kBoundsCsv = "client,y,X.1,X.2,z\nnorth,0.5,1,2,0\nsouth,1.5,3,4,1\nnorth,2.5,5,6,1\n";

TEST_F(BoundErrors, ValidDataAreAccepted) { EXPECT_EQ(bind(R"({"D": 2, "sigma": 1})", kBoundsCsv), "accepted"); }

TEST_F(BoundErrors, CsvElementNamesLineAndColumn) {
  std::string csv = "client,y,X.1,X.2,z\nnorth,0.5,1,2,0\nsouth,1.5,3,4,1\nnorth,2.5,5,6,2\n";
  EXPECT_EQ(bind(R"({"D": 2, "sigma": 1})", csv),
            "data per client north: 'z' element 2 = 2 is above its upper bound (array[N] int<lower=0, upper=1>); at "
            "z[2] from clients.csv line 4, column 'z'");
  std::string low = "client,y,X.1,X.2,z\nnorth,0.5,1,2,0\nsouth,-7,3,4,1\nnorth,2.5,5,6,1\n";
  EXPECT_EQ(bind(R"({"D": 2, "sigma": 1})", low),
            "data per client south: 'y' element 1 = -7 is below its lower bound (vector<lower=-5, upper=5>[N]); "
            "at y[1] from clients.csv line 3, column 'y'");
  // Without a locator the message is CompiledModel's own.
  EXPECT_EQ(bind(R"({"D": 2, "sigma": 1})", csv, false),
            "data per client north: 'z' element 2 = 2 is above its upper bound (array[N] int<lower=0, upper=1>)");
}

TEST_F(BoundErrors, ValuesReadBackExactly) {
  // The value as it was given, not rounded to six decimals (-1e-300 was "-0.000000").
  EXPECT_EQ(bind(R"({"D": 2, "sigma": -1e-300})", kBoundsCsv),
            "data: 'sigma' = -1e-300 is below its lower bound (real<lower=0>); at sigma from data.json");
  EXPECT_EQ(bind(R"({"D": 2, "sigma": -0.1})", kBoundsCsv),
            "data: 'sigma' = -0.1 is below its lower bound (real<lower=0>); at sigma from data.json");
  EXPECT_EQ(bind(R"({"D": 2, "sigma": 1})", "client,y,X.1,X.2,z\nnorth,5.000000000001,1,2,0\nsouth,1.5,3,4,1\n"),
            "data per client north: 'y' element 1 = 5.000000000001 is above its upper bound "
            "(vector<lower=-5, upper=5>[N]); at y[1] from clients.csv line 2, column 'y'");
  EXPECT_EQ(bind(R"({"D": 2, "sigma": 1})", "client,y,X.1,X.2,z\nnorth,-Inf,1,2,0\nsouth,1.5,3,4,1\n"),
            "data per client north: 'y' element 1 = -inf is below its lower bound "
            "(vector<lower=-5, upper=5>[N]); at y[1] from clients.csv line 2, column 'y'");
}

TEST_F(BoundErrors, SharedElementNamesTheJsonFile) {
  EXPECT_EQ(bind(R"({"D": 2, "sigma": -1})", kBoundsCsv),
            "data: 'sigma' = -1 is below its lower bound (real<lower=0>); at sigma from data.json");
  EXPECT_EQ(bind(R"({"D": 0, "sigma": 1})", "client,y,z\nnorth,0.5,0\nsouth,1.5,1\n"),
            "data: 'D' = 0 is below its lower bound (int<lower=1>); at D from data.json");
}

}  // namespace
}  // namespace pvi::test
