// Data that do not match the declared kinds, sizes or bounds are refused before any evaluation,
// with a message naming the block, the partition, the variable and the element.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

const char* kModel = R"(
@partition(client)
data { int<lower=1> D; real<lower=0> prior_sd; }
data per client {
  int<lower=0> N;
  matrix[N, D] X;
  array[N] int<lower=0, upper=1> y;
  vector<lower=-5, upper=5>[N] offset;
}
global { vector[D] beta; }
model { beta ~ normal(0, prior_sd); y ~ bernoulli_logit(X * beta + offset); }
)";

class DataValidation : public ::testing::Test {
 protected:
  void SetUp() override {
    c_ = compileModel(kModel);
    ASSERT_TRUE(c_.jit) << c_.errors;
  }
  static DataBlock shared(int64_t D = 2, double sd = 1.0) {
    DataBlock b;
    b.addInt(D).addReal(sd);
    return b;
  }
  static DataBlock client(int64_t N = 3) {
    DataBlock b;
    b.addInt(N).addReals(std::vector<double>(static_cast<size_t>(N * 2), 0.5)).addInts(std::vector<int64_t>(N, 1));
    b.addReals(std::vector<double>(static_cast<size_t>(N), 0.0));
    return b;
  }
  std::string error(DataBlock s, std::vector<DataBlock> parts, std::vector<std::string> labels = {}) {
    try {
      CompiledModel m(c_.jit->code(), c_.lowered->schema, std::move(s), std::move(parts), std::move(labels));
    } catch (const DataError& e) {
      return e.what();
    }
    return "accepted";
  }
  Compiled c_;
};

TEST_F(DataValidation, ValidDataAreAccepted) { EXPECT_EQ(error(shared(), {client(), client(5)}), "accepted"); }

TEST_F(DataValidation, WrongNumberOfVariables) {
  DataBlock s;
  s.addInt(2);
  EXPECT_EQ(error(s, {client()}), "data: expected 2 variables (D, prior_sd), got 1");
}

TEST_F(DataValidation, WrongKind) {
  DataBlock s;
  s.addReal(2.0).addReal(1.0);
  EXPECT_EQ(error(s, {client()}), "data: 'D' must be an int (int<lower=1>)");
}

TEST_F(DataValidation, ScalarWithSeveralValues) {
  DataBlock s;
  s.addInts({2, 3}).addReal(1.0);
  EXPECT_EQ(error(s, {client()}), "data: 'D' must be one value (int<lower=1>); got 2");
}

TEST_F(DataValidation, WrongSizeNamesThePartition) {
  DataBlock bad;
  bad.addInt(3).addReals(std::vector<double>(5, 0.5)).addInts({1, 0, 1}).addReals({0, 0, 0});
  EXPECT_EQ(error(shared(), {client(), bad}, {"north", "south"}),
            "data per client south: 'X' has 5 values; its type matrix[N, D] needs 6");
}

TEST_F(DataValidation, NegativeSize) {
  DataBlock bad;
  bad.addInt(-1).addReals({}).addInts({}).addReals({});
  // Sizes are checked before bounds, so the negative size is reported on the first variable it makes.
  EXPECT_EQ(error(shared(), {bad}), "data per client 1: 'X' has a negative size (matrix[N, D])");
}

TEST_F(DataValidation, IntAboveItsUpperBound) {
  DataBlock bad;
  bad.addInt(3).addReals(std::vector<double>(6, 0.5)).addInts({1, 0, 2}).addReals({0, 0, 0});
  EXPECT_EQ(error(shared(), {bad}),
            "data per client 1: 'y' element 3 = 2 is above its upper bound (array[N] int<lower=0, upper=1>)");
}

TEST_F(DataValidation, RealBelowItsLowerBound) {
  EXPECT_EQ(error(shared(2, -1.0), {client()}), "data: 'prior_sd' = -1 is below its lower bound (real<lower=0>)");
}

TEST_F(DataValidation, VectorBoundsAndNaN) {
  DataBlock bad;
  bad.addInt(3).addReals(std::vector<double>(6, 0.5)).addInts({1, 0, 1}).addReals({0, 7, 0});
  EXPECT_EQ(error(shared(), {bad}),
            "data per client 1: 'offset' element 2 = 7 is above its upper bound (vector<lower=-5, upper=5>[N])");
  DataBlock nan;
  std::vector<double> X(6, 0.5);
  X[4] = std::nan("");
  nan.addInt(3).addReals(X).addInts({1, 0, 1}).addReals({0, 0, 0});
  EXPECT_EQ(error(shared(), {nan}), "data per client 1: 'X' element 5 is NaN (matrix[N, D])");
}

TEST_F(DataValidation, PartitionsForAModelWithout) {
  Compiled c = compileModel("data { real x; }\nglobal { real mu; }\nmodel { mu ~ normal(x, 1); }\n");
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock s;
  s.addReal(0.0);
  EXPECT_THROW(CompiledModel(c.jit->code(), c.lowered->schema, s, {DataBlock{}}), DataError);
}

}  // namespace
}  // namespace pvi::test

namespace pvi::test {
namespace {

// A copy of a data block points at its own values, so it outlives the original.
TEST(DataBlockTest, CopiesOwnTheirValues) {
  auto original = std::make_unique<DataBlock>();
  original->addInt(3).addReals({1.0, 2.0, 3.0});
  DataBlock copy = *original;
  DataBlock moved = DataBlock(*original);
  original.reset();
  EXPECT_EQ(*static_cast<const int64_t*>(copy.pointers()[0]), 3);
  EXPECT_EQ(static_cast<const double*>(copy.pointers()[1])[2], 3.0);
  EXPECT_EQ(static_cast<const double*>(moved.pointers()[1])[0], 1.0);
}

}  // namespace
}  // namespace pvi::test
