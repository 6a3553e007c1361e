// print and reject in a factor function: print writes one line per evaluation (value or
// gradient), with the values at the point; reject makes the factor -inf without an error, at the
// points where its branch runs, and a branch that only prints or rejects may test a latent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

// What `f` writes to stderr (file descriptor 2), through a temporary file.
template <class F>
std::string stderrOf(F f) {
  std::fflush(stderr);
  char path[] = "/tmp/pvi_print_testXXXXXX";
  const int fd = mkstemp(path);
  const int saved = dup(2);
  dup2(fd, 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

const char* kPrintingModel = R"(
data { int N; }
parameters { real mu; vector[2] v; }
model {
  print("mu is ", mu, ", v is ", v, ", N is ", N);
  if (mu > 2) reject("mu = ", mu, " is above 2");
  mu ~ normal(0, 1);
  v ~ normal(0, 1);
}
)";

TEST(PrintStatement, PrintsOncePerEvaluationAndRejectGivesMinusInfinity) {
  Compiled c = compileModel(kPrintingModel);
  ASSERT_TRUE(c.jit) << c.errors;
  DataBlock data;
  data.addInt(7);
  CompiledModel m(c.jit->code(), c.lowered->info, data, {});
  const std::vector<double> z{0.5, -1.25, 3};
  std::vector<double> g(3);
  double value = 0, withGradient = 0;
  const std::string printed = stderrOf([&] {
    value = m.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
    withGradient = m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
  });
  EXPECT_EQ(printed, "mu is 0.5, v is [-1.25,3], N is 7\nmu is 0.5, v is [-1.25,3], N is 7\n");
  const double expected = normalLpdf(0.5, 0, 1) + normalLpdf(-1.25, 0, 1) + normalLpdf(3, 0, 1);
  EXPECT_NEAR(value, expected, 1e-12);
  EXPECT_NEAR(withGradient, expected, 1e-12);
  EXPECT_NEAR(g[0], -0.5, 1e-12);
  const std::vector<double> above{2.5, 0, 0};
  double rejected = 0;
  const std::string message = stderrOf([&] { rejected = m.priorLogDensity(above.data(), nullptr, g.data(), nullptr); });
  EXPECT_EQ(rejected, -INFINITY);
  EXPECT_NE(message.find("reject: mu = 2.5 is above 2"), std::string::npos) << message;
}

}  // namespace
}  // namespace pvi::test
