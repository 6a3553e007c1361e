// Stan's print, reject and fatal_error in pvic runs: a generated print writes one line per draw
// written, with the draw's values; a reject in the model gives the point zero density (NUTS then
// samples the posterior restricted to where it does not reject, here N(0, 1) below 1: mean
// -phi(1) / Phi(1), sd sqrt(1 - 1 phi(1) / Phi(1) - (phi(1) / Phi(1))^2)) and its messages are
// shown up to a limit; fatal_error stops the run with its message and a non-zero exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "runtime/output/StanCsvReader.hpp"

namespace pvi::test {
namespace {

namespace fs = std::filesystem;

const char* kPrintModel = R"(parameters { real mu; }
model {
  mu ~ normal(0, 1);
  if (mu > 1) reject("mu too large: ", mu);
}
generated quantities {
  real twice = 2 * mu;
  print("twice=", twice, " v=", [mu, 1]');
}
)";

TEST(PrintStatements, PrintWritesEachDrawAndRejectRestrictsThePosterior) {
  TempDir dir;
  const fs::path model = dir.path / "print.stan", data = dir.path / "data.json";
  std::ofstream(model) << kPrintModel;
  std::ofstream(data) << "{}";
  const ProcessResult r = run(pvic() + " run " + model.string() + " --data " + data.string() +
                              " --algorithm nuts --seed 3 --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // One printed line per draw written (4 chains x 1,000), each with its draw's values.
  std::vector<double> printed;
  std::istringstream err(r.err);
  int rejects = 0;
  for (std::string line; std::getline(err, line);) {
    if (line.rfind("reject: ", 0) == 0) ++rejects;
    if (line.rfind("twice=", 0) != 0) continue;
    double twice = 0, mu = 0, one = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "twice=%lf v=[%lf,%lf]", &twice, &mu, &one), 3) << line;
    EXPECT_NEAR(twice, 2 * mu, 1e-5 * (1 + std::fabs(twice))) << line;  // 6 significant digits
    EXPECT_EQ(one, 1.0);
    printed.push_back(twice);
  }
  std::vector<double> written;
  for (int c = 1; c <= 4; ++c) {
    const output::StanCsvFile csv = output::readStanCsv(dir.path / ("fit_" + std::to_string(c) + ".csv"));
    const Eigen::Index k = static_cast<Eigen::Index>(csv.columnIndex("twice").value());
    for (Eigen::Index row = 0; row < csv.draws.rows(); ++row) written.push_back(csv.draws(row, k));
  }
  ASSERT_EQ(written.size(), 4000u);
  ASSERT_EQ(printed.size(), written.size());
  std::sort(printed.begin(), printed.end());
  std::sort(written.begin(), written.end());
  for (size_t k = 0; k < written.size(); ++k)
    EXPECT_NEAR(printed[k], written[k], 1e-5 * (1 + std::fabs(written[k]))) << k;
  // reject: no draw above 1, the messages shown and then capped (20 and a note).
  for (double twice : written) EXPECT_LE(twice, 2.0);
  EXPECT_NE(r.err.find("reject: mu too large: "), std::string::npos);
  EXPECT_NE(r.err.find(" (at " + model.string() + ":4:15)\n"), std::string::npos) << r.err;  // the statement
  EXPECT_EQ(rejects, 21);
  EXPECT_NE(r.err.find("reject: (further reject messages are not shown)"), std::string::npos);
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  const double pi = 3.14159265358979323846;
  const double lambda = std::exp(-0.5) / std::sqrt(2 * pi) / (0.5 * std::erfc(-1 / std::sqrt(2.0)));
  for (const nlohmann::json& p : summary["parameters"]) {
    if (p["name"] != "mu") continue;
    EXPECT_NEAR(p["mean"].get<double>(), -lambda, 5 * p["mcse_mean"].get<double>());
    const double sd = std::sqrt(1 - lambda - lambda * lambda);
    EXPECT_NEAR(p["sd"].get<double>(), sd, 5 * sd / std::sqrt(2 * p["ess_bulk"].get<double>()));
  }
}

TEST(PrintStatements, FatalErrorStopsTheRunWithItsMessage) {
  TempDir dir;
  const fs::path model = dir.path / "fatal.stan", data = dir.path / "data.json";
  std::ofstream(model) << "parameters { real mu; }\nmodel { mu ~ normal(0, 1); }\n"
                          "generated quantities { real x = mu; if (x < 1e9) fatal_error(\"stopped at \", x); }\n";
  std::ofstream(data) << "{}";
  const ProcessResult r = run(pvic() + " run " + model.string() + " --data " + data.string() +
                              " --seed 3 --progress never -o " + (dir.path / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("fatal_error: stopped at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the generated quantities called fatal_error"), std::string::npos) << r.err;
}

// A fit that finds no point where the density is finite names the statement that makes it so.
TEST(RuntimeMessages, AFitWithoutAFinitePointNamesTheStatement) {
  TempDir dir;
  const fs::path model = dir.path / "scale.stan", data = dir.path / "data.json";
  std::ofstream(model) << "data { int N; vector[N] y; }\nparameters { real mu; }\nmodel {\n  mu ~ normal(0, 1);\n"
                          "  y ~ normal(mu, -1);\n}\n";
  std::ofstream(data) << R"({"N": 3, "y": [1, 2, 3]})";
  const std::string run = pvic() + " run " + model.string() + " --data " + data.string() + " --progress never -o " +
                          (dir.path / "fit.csv").string() + " --algorithm ";
  ProcessResult r = pvi::test::run(run + "nuts");
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("no starting point with a finite log density and gradient"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at the last point tried, the term of 'y ~ normal(mu, -1);' at 5:3 is not finite"),
            std::string::npos)
      << r.err;
  r = pvi::test::run(run + "pvi");
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("the model is not finite where q puts mass"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("there, the term of 'y ~ normal(mu, -1);' at 5:3 is not finite"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pvi::test
