// Draw tables too large for memory are refused before they are allocated (checkDrawsFit,
// docs/cli.md "Memory"), naming the largest variable and how many draws would fit.
#include <gtest/gtest.h>

#include <cstdlib>

#include "model_harness.hpp"
#include "runtime/fit/PosteriorDraws.hpp"

namespace pvi::test {
namespace {

// One global and a generated quantity of N values; two partitions.
struct Small {
  Compiled compiled;
  std::unique_ptr<CompiledModel> model;
};

Small small(int64_t n) {
  Small s;
  s.compiled = compileModel(R"(
@partition(client)
data { int<lower=0> N; }
data per client { int<lower=0> M; vector[M] y; }
global { real mu; }
model { mu ~ normal(0, 1); y ~ normal(mu, 1); }
generated { vector[N] g = rep_vector(mu, N); }
)");
  if (!s.compiled.jit) throw std::runtime_error(s.compiled.errors);
  DataBlock shared;
  shared.addInt(n);
  std::vector<DataBlock> parts(2);
  for (DataBlock& p : parts) p.addInt(1).addReals({0.5});
  s.model = std::make_unique<CompiledModel>(s.compiled.jit->code(), s.compiled.lowered->info, shared, parts);
  return s;
}

TEST(DrawsLimit, TooManyDrawsAreRefusedNamingTheLargestVariable) {
  const Small s = small(1000);
  // 3 density columns + mu + g: 1,004 values of 8 bytes per draw.
  const MemoryLimit limit{1004 * 8 * 500, "a test limit"};
  EXPECT_NO_THROW(checkDrawsFit(*s.model, 500, limit));
  try {
    checkDrawsFit(*s.model, 501, limit);
    ADD_FAILURE() << "accepted";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "501 draws of the 1,004 values of each draw (parameters and generated quantities) would take 3.84 MiB, "
              "more than a test limit (3.83 MiB); the largest is 'g' (vector[N]) in generated, with 1,000 elements "
              "(7.81 KiB) per draw (N = 1000); at most 500 draws fit");
  }
  try {
    checkDrawsFit(*s.model, 1, MemoryLimit{100, "a tiny limit"});
    ADD_FAILURE() << "accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("; not even one draw fits"), std::string::npos) << e.what();
  }
}

TEST(DrawsLimit, DrawPosteriorRefusesBeforeAllocating) {
  const Small s = small(1000);
  FitResult fit;
  fit.posterior = GaussianPosterior{Eigen::VectorXd::Zero(1), Eigen::MatrixXd::Identity(1, 1), {}, {{}, {}}};
  {
    struct Limit {
      Limit() { setenv(kMemoryLimitVariable, "1M", 1); }
      ~Limit() { unsetenv(kMemoryLimitVariable); }
    } limit;
    EXPECT_THROW(drawPosterior(*s.model, fit, 1000, 1), DataError);  // 7.7 MiB
  }
  EXPECT_EQ(drawPosterior(*s.model, fit, 10, 1).global.values.rows(), 10);
}

}  // namespace
}  // namespace pvi::test
