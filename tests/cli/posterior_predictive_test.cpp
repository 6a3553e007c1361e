// Posterior predictive checks with _rng functions, for NUTS and variational fits alike: the drawn
// quantities follow the posterior predictive distribution, a seed reproduces them, a quantity
// outside its declared bounds fails the run with its name, and `pvic check` refuses what `pvic run`
// could not compile.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "cli_support.hpp"
#include "runtime/output/StanCsvReader.hpp"

namespace pvi::test {
namespace {

namespace fs = std::filesystem;

// y_n ~ normal(mu, 1), mu ~ normal(0, 10): the posterior of mu is normal(m, v) with
// v = 1 / (N + 1/100) and m = v sum(y), so y_new ~ normal(mu, 1) has the posterior predictive
// normal(m, 1 + v); count ~ poisson(exp(y_new / 4)) has mean E[exp(y_new / 4)] = exp(m/4 + (1 + v)/32).
const char* kModel = R"(data {
  int<lower=0> N;
  vector[N] y;
}
parameters {
  real mu;
}
model {
  mu ~ normal(0, 10);
  y ~ normal(mu, 1);
}
generated quantities {
  real y_new = normal_rng(mu, 1);
  int<lower=0> count = poisson_rng(exp(y_new / 4));
  array[N] real y_rep = normal_rng(rep_vector(mu, N), 1);
}
)";

const std::vector<double> kY{1.2, 0.4, 2.1, 1.7, 0.9, 1.1, 1.6, 0.2, 1.4, 1.0};

struct Files {
  TempDir dir;
  fs::path model, data;
  Files() {
    model = dir.path / "normal.stan";
    data = dir.path / "data.json";
    std::ofstream(model) << kModel;
    std::ofstream d(data);
    d << "{\"N\": " << kY.size() << ", \"y\": [";
    for (size_t i = 0; i < kY.size(); ++i) d << (i ? ", " : "") << kY[i];
    d << "]}";
  }
};

output::StanCsvFile fit(const Files& f, const std::string& options, const std::string& out) {
  const ProcessResult r = run(pvic() + " run " + f.model.string() + " --data " + f.data.string() + options +
                              " --progress never -o " + (f.dir.path / out).string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return output::readStanCsv(f.dir.path / out);
}

double columnMean(const output::StanCsvFile& csv, const std::string& name) {
  return csv.draws.col(static_cast<Eigen::Index>(*csv.columnIndex(name))).mean();
}

double columnVariance(const output::StanCsvFile& csv, const std::string& name) {
  const Eigen::VectorXd c = csv.draws.col(static_cast<Eigen::Index>(*csv.columnIndex(name)));
  return (c.array() - c.mean()).square().sum() / static_cast<double>(c.size() - 1);
}

TEST(PosteriorPredictive, NutsAndVariationalDrawsFollowThePredictiveDistribution) {
  Files f;
  double sum = 0;
  for (double y : kY) sum += y;
  const double v = 1.0 / (static_cast<double>(kY.size()) + 0.01), m = v * sum, predVar = 1.0 + v;
  const double countMean = std::exp(m / 4 + predVar / 32);
  for (const std::string options : {std::string(" --algorithm nuts --chains 2 --draws 2000 --seed 3 --merge-chains"),
                                    std::string(" --draws 4000 --seed 3")}) {
    SCOPED_TRACE(options);
    const output::StanCsvFile csv = fit(f, options, "fit.csv");
    const double n = static_cast<double>(csv.draws.rows());
    ASSERT_GE(n, 4000);
    // y_new given mu is fresh noise of variance 1 in every draw, so the draws of y_new are nearly
    // independent whatever the sampler's autocorrelation of mu (variance v = 0.1 of the total).
    EXPECT_NEAR(columnMean(csv, "y_new"), m, 5 * std::sqrt(predVar / n));
    EXPECT_NEAR(columnVariance(csv, "y_new"), predVar, 5 * predVar * std::sqrt(2 / n));
    EXPECT_NEAR(columnMean(csv, "y_rep.7"), m, 5 * std::sqrt(predVar / n));
    // count: its variance is E[lambda] + Var[lambda] < 2 countMean here.
    EXPECT_NEAR(columnMean(csv, "count"), countMean, 5 * std::sqrt(2 * countMean / n));
    const Eigen::VectorXd counts = csv.draws.col(static_cast<Eigen::Index>(*csv.columnIndex("count")));
    EXPECT_TRUE((counts.array() == counts.array().floor()).all());
  }
}

TEST(PosteriorPredictive, ASeedReproducesTheDraws) {
  Files f;
  const output::StanCsvFile a = fit(f, " --draws 500 --seed 9", "a.csv");
  const output::StanCsvFile b = fit(f, " --draws 500 --seed 9", "b.csv");
  const output::StanCsvFile c = fit(f, " --draws 500 --seed 10", "c.csv");
  const auto col = [](const output::StanCsvFile& x) {
    return Eigen::VectorXd(x.draws.col(static_cast<Eigen::Index>(*x.columnIndex("y_new"))));
  };
  EXPECT_EQ(col(a), col(b));
  EXPECT_NE(col(a), col(c));
}

TEST(PosteriorPredictive, AQuantityOutsideItsBoundsFailsTheRunNamingIt) {
  TempDir dir;
  const fs::path model = dir.path / "bounded.stan", data = dir.path / "data.json";
  std::ofstream(model) << "data { int N; vector[N] y; }\nparameters { real mu; }\n"
                          "model { mu ~ normal(0, 10); y ~ normal(mu, 1); }\n"
                          "generated quantities { real<upper=0> below = normal_rng(mu, 1); }\n";
  std::ofstream(data) << "{\"N\": 3, \"y\": [10, 11, 12]}";
  const ProcessResult r = run(pvic() + " run " + model.string() + " --data " + data.string() +
                              " --progress never -o " + (dir.path / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("the generated quantity 'below' is above its upper bound (declared with <upper=0>)"),
            std::string::npos)
      << r.err;
}

TEST(PosteriorPredictive, CheckRefusesWhatRunCouldNotCompile) {
  TempDir dir;
  const fs::path model = dir.path / "twice.pvi";
  std::ofstream(model) << "@partition(g)\ndata per g { int N; vector[N] y; }\nglobal { real mu; }\n"
                          "local per g { real u; }\nmodel { mu ~ normal(0, 1); u ~ normal(mu, 1); y ~ normal(u, 1); }\n"
                          "generated { real d = normal_rng(mu, 1); real s = u - d; }\n";
  const ProcessResult r = run(pvic() + " check " + model.string());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("6:22: error: not supported by code generation yet: 'normal_rng' in 'd'"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace pvi::test
