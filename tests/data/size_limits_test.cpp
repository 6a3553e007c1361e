// Sizes too large for memory (docs/data.md): the checked element counts, the memory limit, and
// CompiledModel refusing parameters and generated quantities whose declared sizes would exceed
// it, when the data are bound and before anything of that size is allocated.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <limits>

#include "../codegen/model_harness.hpp"
#include "data_test_support.hpp"
#include "runtime/model/MemoryLimit.hpp"

namespace pvi::test {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// Sets PVI_MEMORY_LIMIT for the scope of a test.
struct ScopedMemoryLimit {
  explicit ScopedMemoryLimit(const char* value) { setenv(kMemoryLimitVariable, value, 1); }
  ~ScopedMemoryLimit() { unsetenv(kMemoryLimitVariable); }
};

TEST(CheckedSizes, MultiplicationOverflowIsRefusedNotWrapped) {
  EXPECT_EQ(checkedMultiply(3, 4), 12u);
  EXPECT_EQ(checkedMultiply(kMax, 1), kMax);
  EXPECT_EQ(checkedMultiply(std::uint64_t{1} << 32, std::uint64_t{1} << 32), std::nullopt);  // 2^64 wraps to 0
  EXPECT_EQ(checkedMultiply(kMax / 2 + 1, 2), std::nullopt);

  const std::uint64_t big[] = {std::uint64_t{1} << 32, std::uint64_t{1} << 32};
  EXPECT_EQ(checkedProduct(big), std::nullopt);
  const std::uint64_t bigThenZero[] = {std::uint64_t{1} << 40, std::uint64_t{1} << 40, 0};  // no values at all
  EXPECT_EQ(checkedProduct(bigThenZero), 0u);
  const std::uint64_t dims[] = {57, 1000, 3};
  EXPECT_EQ(checkedProduct(dims), 171000u);
  EXPECT_EQ(checkedProduct({}), 1u);  // a scalar
}

TEST(CheckedSizes, SizesFromTheShapesFunctions) {
  EXPECT_EQ(sizeFromDouble(0.0), 0u);
  EXPECT_EQ(sizeFromDouble(1e12), 1000000000000u);
  EXPECT_EQ(sizeFromDouble(18446744073709549568.0), 18446744073709549568u);  // the largest double below 2^64
  EXPECT_EQ(sizeFromDouble(18446744073709551616.0), std::nullopt);           // 2^64
  EXPECT_EQ(sizeFromDouble(-1.0), std::nullopt);
  EXPECT_EQ(sizeFromDouble(2.5), std::nullopt);
  EXPECT_EQ(sizeFromDouble(std::numeric_limits<double>::quiet_NaN()), std::nullopt);
  EXPECT_EQ(sizeFromDouble(std::numeric_limits<double>::infinity()), std::nullopt);
}

TEST(CheckedSizes, Texts) {
  EXPECT_EQ(groupedNumber(0), "0");
  EXPECT_EQ(groupedNumber(999), "999");
  EXPECT_EQ(groupedNumber(1000), "1,000");
  EXPECT_EQ(groupedNumber(kMax), "18,446,744,073,709,551,615");
  EXPECT_EQ(byteSizeText(8), "8 B");
  EXPECT_EQ(byteSizeText(1024), "1.00 KiB");
  EXPECT_EQ(byteSizeText(92100000.0L * 8), "703 MiB");
  EXPECT_EQ(byteSizeText(23.44L * 1024 * 1024 * 1024), "23.4 GiB");
  const std::uint64_t hidden[] = {921, 100000};
  EXPECT_EQ(elementCountText(hidden), "921 x 100,000 = 92,100,000 elements (703 MiB)");
  const std::uint64_t one[] = {100000};
  EXPECT_EQ(elementCountText(one), "100,000 elements (781 KiB)");
  EXPECT_EQ(elementCountText({}), "1 element (8 B)");
  const std::uint64_t huge[] = {std::uint64_t{1} << 32, std::uint64_t{1} << 32};
  EXPECT_EQ(elementCountText(huge), "4,294,967,296 x 4,294,967,296 = more than 18,446,744,073,709,551,615 elements");
}

TEST(CheckedSizes, LimitCountsEightBytesPerValueAndOverflowAlwaysExceeds) {
  const MemoryLimit limit{80, "a test limit"};
  EXPECT_FALSE(limit.exceededBy(10));
  EXPECT_TRUE(limit.exceededBy(11));
  EXPECT_TRUE(limit.exceededBy(std::nullopt));
  EXPECT_FALSE((MemoryLimit{kMax, "all"}.exceededBy(kMax / 8)));
  EXPECT_EQ(limit.text(), "a test limit (80 B)");
}

TEST(MemoryLimitTest, MachineMemoryByDefaultAndTheVariableReplacesIt) {
  unsetenv(kMemoryLimitVariable);
  const MemoryLimit machine = memoryLimit();
  EXPECT_GT(machine.bytes, std::uint64_t{64} << 20);
  EXPECT_FALSE(machine.what.empty());
  {
    ScopedMemoryLimit set("8G");
    EXPECT_EQ(memoryLimit().bytes, std::uint64_t{8} << 30);
    EXPECT_EQ(memoryLimit().text(), "the limit set by PVI_MEMORY_LIMIT (8.00 GiB)");
  }
  {
    ScopedMemoryLimit set("lots");
    try {
      memoryLimit();
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(
          std::string(e.what()),
          "PVI_MEMORY_LIMIT=lots is not a memory size (expected bytes, or a number with K, M, G, T or P, e.g. 8G)");
    }
  }
}

TEST(MemoryLimitTest, ByteSizes) {
  EXPECT_EQ(parseByteSize("1234"), 1234u);
  EXPECT_EQ(parseByteSize("1234B"), 1234u);
  EXPECT_EQ(parseByteSize("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(parseByteSize("512MiB"), std::uint64_t{512} << 20);
  EXPECT_EQ(parseByteSize(" 8g "), std::uint64_t{8} << 30);
  EXPECT_EQ(parseByteSize("2T"), std::uint64_t{2} << 40);
  EXPECT_EQ(parseByteSize("1P"), std::uint64_t{1} << 50);
  EXPECT_EQ(parseByteSize("16384P"), std::nullopt);  // 2^64
  EXPECT_EQ(parseByteSize("99999999999999999999"), std::nullopt);
  EXPECT_EQ(parseByteSize(""), std::nullopt);
  EXPECT_EQ(parseByteSize("G"), std::nullopt);
  EXPECT_EQ(parseByteSize("8 GB"), std::nullopt);
  EXPECT_EQ(parseByteSize("8X"), std::nullopt);
  EXPECT_EQ(parseByteSize("-8G"), std::nullopt);
  EXPECT_EQ(parseByteSize("1.5G"), std::nullopt);
}

// A global, a local per partition and a generated quantity, each sized by its own int.
const char* kSizeModel = R"(
@partition(client)
data { int<lower=0> K; int<lower=0> N; }
data per client { int<lower=0> M; vector[M] y; int<lower=0> L; }
global { vector[K] x; }
local per client { vector[L] u; }
model { x ~ normal(0, 1); u ~ normal(0, 1); y ~ normal(0, 1); }
generated { vector[N] g = rep_vector(1.0, N); }
)";

// The peak resident memory of this process, in bytes.
std::uint64_t peakResident() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss) * 1024;
}

class SizeLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv(kMemoryLimitVariable);
    c_ = compileModel(kSizeModel);
    ASSERT_TRUE(c_.jit) << c_.errors;
  }
  // Binds the data and returns "accepted" or the DataError's message; any other exception (a
  // std::bad_alloc above all) fails the test.
  std::string bind(const std::string& shared, const std::string& north, const Compiled* c = nullptr) {
    const Compiled& m = c ? *c : c_;
    DataTexts t;
    t.sharedJson = text("data.json", shared);
    t.partitionJson = {text("north.json", north), text("south.json", R"({"M": 1, "y": [0.5], "L": 1})")};
    BoundData d = loadDataTexts(m.lowered->info.data, t);
    try {
      CompiledModel model(m.jit->code(), m.lowered->info, d.shared, d.partitions, d.labels, d.locator());
    } catch (const DataError& e) {
      return e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a DataError: " << e.what();
      return e.what();
    }
    return "accepted";
  }
  Compiled c_;
};

const char* kNorth = R"({"M": 2, "y": [1, 2], "L": 3})";

TEST_F(SizeLimits, SizesThatFitAreAccepted) {
  EXPECT_EQ(bind(R"({"K": 2, "N": 4})", kNorth), "accepted");
  // At the limit exactly: 10 values of 8 bytes in 80 bytes.
  ScopedMemoryLimit limit("80");
  EXPECT_EQ(bind(R"({"K": 10, "N": 10})", R"({"M": 2, "y": [1, 2], "L": 10})"), "accepted");
}

TEST_F(SizeLimits, OneElementOverTheLimitIsRefused) {
  ScopedMemoryLimit limit("80");
  EXPECT_EQ(bind(R"({"K": 11, "N": 10})", kNorth),
            "global: 'x' (vector[K]) would have 11 elements (88 B), more than the limit set by PVI_MEMORY_LIMIT "
            "(80 B); K = 11 from data.json");
}

TEST_F(SizeLimits, HugeGlobalIsRefusedNamingTheVariableWithoutAllocatingIt) {
  const std::uint64_t before = peakResident();
  const std::string message = bind(R"({"K": 1000000000000, "N": 4})", kNorth);  // 7.28 TiB of values
  EXPECT_TRUE(contains(message, "global: 'x' (vector[K]) would have 1,000,000,000,000 elements (7.28 TiB), more than "))
      << message;
  EXPECT_TRUE(contains(message, "; K = 1000000000000 from data.json")) << message;
  // Refused before allocating: nothing near the size was ever resident.
  EXPECT_LT(peakResident() - before, std::uint64_t{256} << 20);

  ScopedMemoryLimit limit("16G");
  EXPECT_EQ(bind(R"({"K": 1000000000000, "N": 4})", kNorth),
            "global: 'x' (vector[K]) would have 1,000,000,000,000 elements (7.28 TiB), more than the limit set by "
            "PVI_MEMORY_LIMIT (16.0 GiB); K = 1000000000000 from data.json");
}

TEST_F(SizeLimits, HugeGeneratedQuantityIsRefused) {
  ScopedMemoryLimit limit("16G");
  EXPECT_EQ(bind(R"({"K": 2, "N": 1000000000000})", kNorth),
            "generated: 'g' (vector[N]) would have 1,000,000,000,000 elements (7.28 TiB), more than the limit set by "
            "PVI_MEMORY_LIMIT (16.0 GiB); N = 1000000000000 from data.json");
}

TEST_F(SizeLimits, HugeLocalIsRefusedNamingThePartitionAndItsFile) {
  ScopedMemoryLimit limit("16G");
  EXPECT_EQ(bind(R"({"K": 2, "N": 4})", R"({"M": 2, "y": [1, 2], "L": 1000000000000})"),
            "local per client north: 'u' (vector[L]) would have 1,000,000,000,000 elements (7.28 TiB), more than the "
            "limit set by PVI_MEMORY_LIMIT (16.0 GiB); L = 1000000000000 from north.json");
}

TEST_F(SizeLimits, CountThatOverflowsIsRefusedNotWrapped) {
  // 2^32 x 2^32 = 2^64 elements wraps to 0 in 64-bit arithmetic.
  Compiled square = compileModel(R"(
@partition(client)
data { int<lower=0> K; int<lower=0> N; }
data per client { int<lower=0> M; vector[M] y; int<lower=0> L; }
global { matrix[K, K + 0] x; }
model { to_vector(x) ~ normal(0, 1); y ~ normal(0, 1); }
)");
  ASSERT_TRUE(square.jit) << square.errors;
  ScopedMemoryLimit limit("16G");
  EXPECT_EQ(bind(R"({"K": 4294967296, "N": 4})", kNorth, &square),
            "global: 'x' (matrix[K, K + 0]) would have 4,294,967,296 x 4,294,967,296 = more than "
            "18,446,744,073,709,551,615 elements, more than the limit set by PVI_MEMORY_LIMIT (16.0 GiB); "
            "K = 4294967296 from data.json");
}

TEST_F(SizeLimits, BadLimitVariableIsAnError) {
  ScopedMemoryLimit limit("8 gigabytes");
  DataTexts t;
  t.sharedJson = text("data.json", R"({"K": 2, "N": 4})");
  t.partitionJson = {text("north.json", kNorth)};
  BoundData d = loadDataTexts(c_.lowered->info.data, t);
  EXPECT_THROW(CompiledModel(c_.jit->code(), c_.lowered->info, d.shared, d.partitions, d.labels, d.locator()),
               std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
