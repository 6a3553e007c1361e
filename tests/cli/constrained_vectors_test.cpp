// simplex, ordered and positive_ordered parameters against exact posteriors, with NUTS: the order
// statistics of two standard normals (ordered) and of two unit exponentials (positive_ordered), a
// Dirichlet-categorical posterior (simplex), an array of simplexes under a flat Dirichlet, and the
// correlations of LKJ priors (cholesky_factor_corr).
// Means are held to 5 MCSE; sds to 5 standard errors of an sd estimate from ESS draws.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "exact_moments.hpp"

namespace pvi::test {
namespace {

namespace fs = std::filesystem;

const char* kConstrainedModel = R"(parameters {
  ordered[2] mu;
  positive_ordered[2] x;
  simplex[3] theta;
  array[2] simplex[2] p;
  cholesky_factor_corr[3] L;
  cholesky_factor_corr[2] L2;
}
model {
  mu ~ normal(0, 1);
  x ~ exponential(1);
  theta ~ dirichlet([2, 3, 5]');
  {1, 1, 1, 2} ~ categorical(theta);  // counts (3, 1, 0)
  for (j in 1:2) p[j] ~ dirichlet([1, 1]');
  L ~ lkj_corr_cholesky(1);
  L2 ~ lkj_corr_cholesky(2);
}
)";

double dirichletSd(double a, double total) { return std::sqrt(a * (total - a) / (total * total * (total + 1))); }

TEST(ConstrainedVectors, NutsMatchesExactPosteriors) {
  const double pi = 3.14159265358979323846;
  const std::vector<ExactMoments> exact{
      {"mu.1", -1 / std::sqrt(pi), std::sqrt(1 - 1 / pi)},
      {"mu.2", 1 / std::sqrt(pi), std::sqrt(1 - 1 / pi)},
      {"x.1", 0.5, 0.5},                   // the minimum of two Exp(1): Exp(2)
      {"x.2", 1.5, std::sqrt(1.25)},       // the maximum: 1/2 + 1, variance 1/4 + 1
      {"theta.1", 5.0 / 14, dirichletSd(5, 14)},  // Dirichlet(2 + 3, 3 + 1, 5 + 0)
      {"theta.2", 4.0 / 14, dirichletSd(4, 14)},
      {"theta.3", 5.0 / 14, dirichletSd(5, 14)},
      {"p.1.1", 0.5, std::sqrt(1.0 / 12)},
      {"p.2.2", 0.5, std::sqrt(1.0 / 12)},
      // LKJ(eta) over K x K correlation matrices: each correlation is 2 Beta(b, b) - 1 with
      // b = eta - 1 + K / 2, sd 1 / sqrt(2 b + 1); L[2, 1] and L[3, 1] are correlations.
      {"L.2.1", 0.0, 0.5},
      {"L.3.1", 0.0, 0.5},
      {"L2.2.1", 0.0, std::sqrt(0.2)},
  };
  // The exponential's heavier tail gets twice the near-Gaussian sd tolerance.
  expectNutsMatchesExactMoments(kConstrainedModel, exact, 11, 10);
}

// The variational summary's exact moments of unbounded globals declared after a simplex are
// read at their own coordinates of z (a simplex has one coordinate fewer than elements).
TEST(ConstrainedVectors, VariationalMomentsOfLaterGlobalsAreTheirOwn) {
  TempDir dir;
  const fs::path model = dir.path / "after_simplex.stan", data = dir.path / "data.json";
  std::ofstream(model) << "parameters { simplex[3] p; real mu; real nu; }\n"
                          "model { mu ~ normal(5, 1); nu ~ normal(-5, 2); }\n";
  std::ofstream(data) << "{}";
  const ProcessResult r = run(pvic() + " run " + model.string() + " --data " + data.string() +
                              " --seed 4 --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  std::map<std::string, std::pair<double, double>> moments;
  for (const nlohmann::json& p : summary["parameters"]) moments[p["name"]] = {p["mean"], p["sd"]};
  // The posterior is the prior here. Read at the wrong coordinates, mu would show nu's moments
  // (10 apart); the tolerances are a fifth of a posterior sd, far above q's fitting noise.
  EXPECT_NEAR(moments["mu"].first, 5, 0.2);
  EXPECT_NEAR(moments["mu"].second, 1, 0.15);
  EXPECT_NEAR(moments["nu"].first, -5, 0.4);
  EXPECT_NEAR(moments["nu"].second, 2, 0.3);
}

// Data of a constrained type are checked when they are bound, as Stan checks them; a local
// variable of a constrained type is refused, as in Stan.
TEST(ConstrainedVectors, DataAreCheckedAndLocalsRefused) {
  TempDir dir;
  const fs::path model = dir.path / "data_simplex.stan";
  std::ofstream(model) << "data { simplex[3] w; }\nparameters { real mu; }\nmodel { mu ~ normal(w[1], 1); }\n";
  std::ofstream(dir.path / "valid.json") << R"({"w": [0.2, 0.3, 0.5]})";
  std::ofstream(dir.path / "invalid.json") << R"({"w": [0.2, 0.3, 0.6]})";
  const std::string run = pvic() + " run " + model.string() +
                          " --algorithm nuts --chains 1 --warmup 100 --draws 100 -o " +
                          (dir.path / "fit.csv").string() + " --progress never --data ";
  ProcessResult r = pvi::test::run(run + (dir.path / "valid.json").string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  r = pvi::test::run(run + (dir.path / "invalid.json").string());
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("the data 'w' is not a valid simplex: its elements must be >= 0 and sum to 1 (within 1e-8)"),
            std::string::npos)
      << r.err;
  const fs::path local = dir.path / "local_simplex.stan";
  std::ofstream(local) << "parameters { real mu; }\nmodel { simplex[2] q = [0.5, 0.5]'; mu ~ normal(q[1], 1); }\n";
  r = pvi::test::run(pvic() + " check " + local.string());
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("2:9: error: a local variable cannot be a simplex"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pvi::test
