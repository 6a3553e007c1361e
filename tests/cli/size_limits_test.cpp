// Sizes too large for memory through the command line (docs/cli.md, "Memory"): the bundled
// bnn_classifier with its data's H raised is refused quickly, with the data-error exit code and
// a message naming the variable and where its size came from, rather than ending in the fit with
// std::bad_alloc (issue 10).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace pvi::test {
namespace {

struct BnnSizes : ::testing::Test {
  TempDir dir;
  std::string ex = example("bnn_classifier");
  // Runs the example with H set to `h`, under `env` (e.g. "PVI_MEMORY_LIMIT=16G"); records the
  // time taken.
  ProcessResult runWithH(long long h, const std::string& env, const std::string& options = "") {
    nlohmann::json data = nlohmann::json::parse(slurp(ex + "/data.json"));
    data["H"] = h;
    const std::string file = (dir.path / "data.json").string();
    std::ofstream(file, std::ios::binary) << data.dump();
    const auto start = std::chrono::steady_clock::now();
    ProcessResult r = run("env -u PVI_MEMORY_LIMIT " + env + " " + pvic() + " run " + ex + "/model.pvi --data " + file +
                          " --partition-data " + example("logistic_regression") + "/data_per_client.csv" +
                          " --progress never -o " + (dir.path / "fit.csv").string() + " " + options);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  double seconds = 0;
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// H = 100000: hidden_test has 921 x 100,000 values per draw; 1,000 draws of everything need
// 730 GiB. Refused before the fit, naming the variable.
TEST_F(BnnSizes, DrawsTooLargeForMemoryAreRefusedNamingTheVariable) {
  ProcessResult r = runWithH(100000, "PVI_MEMORY_LIMIT=16G");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_TRUE(has(r.err,
                  "1,000 draws of the 98,000,925 values of each draw (parameters and generated quantities) "
                  "would take 730 GiB, more than the limit set by PVI_MEMORY_LIMIT (16.0 GiB); the largest is "
                  "'hidden_test' (matrix[N_test, H]) in generated, with 921 x 100,000 = 92,100,000 elements "
                  "(703 MiB) per draw (N_test = 921, H = 100000 from "))
      << r.err;
  EXPECT_TRUE(has(r.err, "; at most 21 draws fit")) << r.err;
  EXPECT_FALSE(has(r.err, "bad_alloc")) << r.err;
  EXPECT_FALSE(has(r.out, "algorithm:")) << r.out;  // nothing was fitted
  EXPECT_LT(seconds, 60.0);
}

// H = 10^12: W1 alone would need 415 TiB, more than any machine's memory: refused when the data
// are bound, by the machine's own limit.
TEST_F(BnnSizes, ParameterTooLargeForTheMachineIsRefusedWhenDataAreBound) {
  ProcessResult r = runWithH(1000000000000LL, "");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_TRUE(has(r.err,
                  "error: global: 'W1' (matrix[D, H]) would have 57 x 1,000,000,000,000 = "
                  "57,000,000,000,000 elements (415 TiB), more than "))
      << r.err;
  EXPECT_TRUE(has(r.err, "; D = 57, H = 1000000000000 from " + (dir.path / "data.json").string())) << r.err;
  EXPECT_LT(seconds, 60.0);
}

// H = 1000 with --family full: 59,001 globals, a 25.9 GiB covariance per factor copy.
TEST_F(BnnSizes, FullFamilyTooLargeForMemoryIsRefusedSuggestingMeanField) {
  ProcessResult r = runWithH(1000, "PVI_MEMORY_LIMIT=64G", "--family full");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_TRUE(has(r.err,
                  "the full-covariance Gaussian family over 59,001 global dimensions needs a 59,001 x 59,001 "
                  "covariance matrix (25.9 GiB)"))
      << r.err;
  EXPECT_TRUE(has(r.err, "use the mean-field family (--family mean-field)")) << r.err;
  EXPECT_LT(seconds, 60.0);
}

}  // namespace
}  // namespace pvi::test
