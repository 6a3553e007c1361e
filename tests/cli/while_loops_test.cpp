// `while` loops, as in Stan: in transformed data (computing a size), in the model inside an active
// for loop (whose gradient replay must skip the while and read the values it left), and in
// generated quantities reading a parameter; `&&` and `||` that stop before an index out of range,
// as Stan's do (prophet's changepoint search). NUTS against the exact posterior; the generated
// quantity against the same loop in C++, draw by draw.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "cli_support.hpp"
#include "exact_moments.hpp"
#include "runtime/output/StanCsvReader.hpp"

namespace pvi::test {
namespace {

namespace fs = std::filesystem;

const char* kWhileProgram = R"(transformed data {
  int doublings = 0;
  real s = 1;
  array[4] real y = {1.2, 1.9, 3.4, 3.7};
  array[3] real t_change = {0.5, 1.5, 2.5};
  int cp = 1;
  int past;
  while (s < 100) {
    s = s * 2;
    doublings += 1;
  }
  // Evaluated in full, each condition would read t_change[4].
  while (cp <= 3 && 3.0 >= t_change[cp]) cp += 1;
  past = cp > 3 || t_change[cp] > 10;
}
parameters {
  real mu;
  real nu;
}
model {
  mu ~ normal(0, 1);
  for (t in 1:4) {
    int k = 0;
    while (k < t) k += 1;
    y[t] ~ normal(mu * k, 1);
  }
  nu ~ normal(doublings + (cp - 4) + (past - 1), 1);
}
generated quantities {
  int halvings = 0;
  {
    real x = abs(nu);
    while (x > 1) {
      x = x / 2;
      halvings += 1;
    }
  }
}
)";

// y_t ~ normal(mu t, 1) with mu ~ normal(0, 1): precision 1 + sum t^2 = 31, mean sum t y_t / 31;
// nu ~ normal(7, 1), 7 doublings taking 1 past 100 (cp = 4 and past = 1 add nothing).
TEST(WhileLoops, TransformedDataModelAndAForLoopsGradientMatchTheExactPosterior) {
  const double y[] = {1.2, 1.9, 3.4, 3.7};
  double precision = 1, weighted = 0;
  for (int t = 1; t <= 4; ++t) {
    precision += t * t;
    weighted += t * y[t - 1];
  }
  expectNutsMatchesExactMoments(kWhileProgram, {{"mu", weighted / precision, 1 / std::sqrt(precision)}, {"nu", 7, 1}},
                                21, 5);
}

TEST(WhileLoops, GeneratedQuantitiesRunTheLoopOnEveryDraw) {
  TempDir dir;
  const fs::path model = dir.path / "while.stan", data = dir.path / "data.json";
  std::ofstream(model) << kWhileProgram;
  std::ofstream(data) << "{}";
  const ProcessResult r = run(pvic() + " run " + model.string() + " --data " + data.string() +
                              " --algorithm nuts --chains 1 --seed 2 --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const output::StanCsvFile csv = output::readStanCsv(dir.path / "fit_1.csv");
  const auto nu = static_cast<Eigen::Index>(csv.columnIndex("nu").value());
  const auto halvings = static_cast<Eigen::Index>(csv.columnIndex("halvings").value());
  ASSERT_GT(csv.draws.rows(), 0);
  for (Eigen::Index row = 0; row < csv.draws.rows(); ++row) {
    int expected = 0;
    for (double x = std::fabs(csv.draws(row, nu)); x > 1; x /= 2) ++expected;
    ASSERT_EQ(csv.draws(row, halvings), expected) << "draw " << row << ", nu " << csv.draws(row, nu);
  }
}

}  // namespace
}  // namespace pvi::test
