// pvic run end to end on the bundled examples' real data, and its handling of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "runtime/diagnostics/ParetoKhat.hpp"
#include "runtime/output/StanCsvReader.hpp"

namespace pvi::test {
namespace {

namespace fs = std::filesystem;

// A short fit: the tests check the plumbing and the files, not convergence.
const std::string kQuick = " --rounds 2 --local-steps 40 --draws 200 --elbo-samples 8 --progress never";

std::string logisticRun(const TempDir& dir) {
  const std::string ex = example("logistic_regression");
  return pvic() + " run " + ex + "/model.pvi --data " + ex + "/data.json --partition-data " + ex +
         "/data_per_client.csv" + kQuick + " -o " + (dir.path / "fit.csv").string();
}

TEST(PvicRun, LogisticRegressionWritesDrawsSummaryAndTable) {
  TempDir dir;
  ProcessResult r = run(logisticRun(dir));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("algorithm: pvi: the model has no local latents"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Mean"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("beta.57"), std::string::npos) << r.out;
  // The last line says where the time went and what the fit evaluated: the 10 clients' gradients
  // (a positive count, a multiple of no fixed number: the clients stop by themselves).
  const std::size_t work = r.out.find("time: compile ");
  ASSERT_NE(work, std::string::npos) << r.out;
  const std::string line = r.out.substr(work, r.out.find('\n', work) - work);
  for (const char* part : {", data ", ", start ", ", fit ", ", draws ", ", write ",
                           "; evaluations: ", " partition gradients, ", "; peak memory "})
    EXPECT_NE(line.find(part), std::string::npos) << part << " in " << line;
  EXPECT_EQ(line.find("evaluations: 0 partition gradients"), std::string::npos) << line;

  output::StanCsvFile csv = output::readStanCsv(dir.path / "fit.csv");
  ASSERT_GE(csv.columns.size(), 3u + 58u + 921u);
  EXPECT_EQ(csv.columns[0], "lp__");
  EXPECT_EQ(csv.columns[1], "log_p__");
  EXPECT_EQ(csv.columns[2], "log_g__");
  EXPECT_EQ(csv.columns[3], "alpha");
  EXPECT_EQ(csv.columns[4], "beta.1");
  EXPECT_EQ(csv.columns[60], "beta.57");
  EXPECT_EQ(csv.columns[61], "p_test.1");
  EXPECT_EQ(csv.columns.back(), "p_test.921");
  EXPECT_EQ(csv.draws.rows(), 200);
  // Predicted probabilities are probabilities; densities are finite.
  EXPECT_GE(csv.draws.rightCols(921).minCoeff(), 0.0);
  EXPECT_LE(csv.draws.rightCols(921).maxCoeff(), 1.0);
  EXPECT_TRUE(csv.draws.col(1).allFinite());
  EXPECT_TRUE(csv.draws.col(2).allFinite());

  nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  EXPECT_EQ(summary["trace"].size(), 2u);
  EXPECT_TRUE(summary["elbo"].is_number()) << summary["elbo"];
}

TEST(PvicRun, HierarchicalModelWritesEachPartitionsLocalsToItsOwnDirectory) {
  TempDir dir;
  const std::string ex = example("hierarchical_logistic");
  ProcessResult r = run(pvic() + " run " + ex + "/model.pvi --data " + ex + "/data.json --partition-data " + ex +
                        "/data_per_district.csv" + kQuick + " -o " + (dir.path / "fit.csv").string() + " --report " +
                        (dir.path / "report").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("sfvi: the model has local latents"), std::string::npos) << r.out;
  std::size_t partitions = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir.path / "fit-locals")) {
    ++partitions;
    output::StanCsvFile locals = output::readStanCsv(e.path() / "locals.csv");
    EXPECT_EQ(locals.columns, (std::vector<std::string>{"a"})) << e.path();
    EXPECT_EQ(locals.draws.rows(), 200);
  }
  EXPECT_EQ(partitions, 60u);
  // The global draws file holds the globals only, never a district's intercept.
  output::StanCsvFile csv = output::readStanCsv(dir.path / "fit.csv");
  EXPECT_FALSE(csv.columnIndex("a").has_value());
  EXPECT_TRUE(csv.columnIndex("tau").has_value());
  EXPECT_GT(csv.draws.col(*csv.columnIndex("tau")).minCoeff(), 0.0);
  EXPECT_TRUE(fs::exists(dir.path / "report" / "index.html"));
  EXPECT_TRUE(fs::exists(dir.path / "report" / "elbo.svg"));
}

// --show-locals prints each partition's summary (its locals and its generated quantities, with
// R-hat and ESS for a sampler) after the main one, with the means its locals_summary.json has;
// without it only the files have them. The "wrote" line names the real directory.
TEST(PvicRun, ShowLocalsPrintsEachPartitionsSummary) {
  TempDir dir;
  const std::string ex = example("eight_schools");
  const std::string base = pvic() + " run " + ex + "/noncentered.pvi --partition-data " + ex +
                           "/data_per_school.csv --algorithm nuts --chains 3 --warmup 200 --draws 150 --seed 4" +
                           " --progress never -o " + (dir.path / "fit.csv").string();
  const ProcessResult quiet = run(base);
  ASSERT_EQ(quiet.exitCode, 0) << quiet.err;
  EXPECT_EQ(quiet.out.find("partition 1:"), std::string::npos) << quiet.out;
  EXPECT_NE(quiet.out.find("wrote " + (dir.path / "fit-locals").string() + "/ (8 partition directories)"),
            std::string::npos)
      << quiet.out;
  const ProcessResult shown = run(base + " --show-locals");
  ASSERT_EQ(shown.exitCode, 0) << shown.err;
  for (int school = 1; school <= 8; ++school) {
    const std::string heading = "\n\npartition " + std::to_string(school) + ":\n";  // after a blank line
    const std::size_t at = shown.out.find(heading);
    ASSERT_NE(at, std::string::npos) << shown.out;
    std::istringstream table(shown.out.substr(at + heading.size()));
    std::string header, row;
    std::getline(table, header);
    EXPECT_NE(header.find("R_hat"), std::string::npos) << header;
    const nlohmann::json summary =
        nlohmann::json::parse(slurp(dir.path / "fit-locals" / std::to_string(school) / "locals_summary.json"));
    std::map<std::string, double> means;
    for (const nlohmann::json& c : summary["locals"]) means[c["name"]] = c["mean"];
    for (const nlohmann::json& c : summary["generated_quantities"]) means[c["name"]] = c["mean"];
    ASSERT_EQ(means.size(), 2u);  // theta_tilde, and theta
    for (std::size_t k = 0; k < means.size() && std::getline(table, row); ++k) {
      std::istringstream cells(row);
      std::string name;
      double mean = NAN;
      cells >> name >> mean;
      ASSERT_TRUE(means.count(name)) << row;
      EXPECT_NEAR(mean, means[name], 1e-3 * (1 + std::abs(means[name]))) << name;  // 4 significant figures
    }
  }
}

// NUTS: one CmdStan sampling file per chain holding the globals, each partition's chains in its
// own directory, the same draws in one file with --merge-chains, the summary with R-hat and ESS,
// and a progress line per chain on request.
TEST(PvicRun, NutsWritesChainFilesAndEachPartitionsLocals) {
  TempDir dir;
  const std::string ex = example("eight_schools");
  const std::string base = pvic() + " run " + ex + "/noncentered.pvi --partition-data " + ex +
                           "/data_per_school.csv --algorithm nuts --chains 3 --warmup 200 --draws 150 --seed 4";
  ProcessResult r = run(base + " --progress always -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("nuts as requested (3 chains of 200 warm-up and 150 draws over 10 parameters"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("R_hat"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("chain 3 100% sampling, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" div "), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("converged"), std::string::npos) << r.out;
  std::vector<output::StanCsvFile> chains;
  for (int c = 1; c <= 3; ++c) chains.push_back(output::readStanCsv(dir.path / ("fit_" + std::to_string(c) + ".csv")));
  for (const output::StanCsvFile& f : chains) {
    EXPECT_EQ(f.columns, (std::vector<std::string>{"lp__", "accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__",
                                                   "divergent__", "energy__", "mu", "tau"}));
    EXPECT_EQ(f.draws.rows(), 150);
    ASSERT_EQ(f.adaptations.size(), 1u);
    EXPECT_EQ(f.adaptations[0].inverseMetricDiagonal.size(), 2);  // the globals' block
    EXPECT_GT(f.draws.col(8).minCoeff(), 0.0);                    // tau > 0
    EXPECT_TRUE(f.timing.has_value());
  }
  EXPECT_FALSE(chains[0].draws.col(7).isApprox(chains[1].draws.col(7)));
  for (int school = 1; school <= 8; ++school) {
    const fs::path d = dir.path / "fit-locals" / std::to_string(school);
    output::StanCsvFile locals = output::readStanCsv(d / "locals_2.csv");
    EXPECT_TRUE(locals.columnIndex("theta_tilde").has_value());
    EXPECT_TRUE(locals.columnIndex("theta").has_value());
    EXPECT_FALSE(locals.columnIndex("mu").has_value());  // a partition's file holds its own values only
    EXPECT_EQ(locals.draws.rows(), 150);
    EXPECT_TRUE(fs::exists(d / "locals_summary.json"));
  }
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  EXPECT_EQ(summary["algorithm"], "nuts");
  EXPECT_EQ(summary["sampling"]["chains"], 3);
  EXPECT_TRUE(summary["parameters"][0]["rhat"].is_number());
  EXPECT_TRUE(summary["parameters"][0]["ess_bulk"].is_number());

  // The same seed with --merge-chains: the same draws in one file, after a chain__ column.
  ProcessResult merged = run(base + " --progress never --merge-chains -o " + (dir.path / "all.csv").string());
  ASSERT_EQ(merged.exitCode, 0) << merged.err;
  output::StanCsvFile all = output::readStanCsv(dir.path / "all.csv");
  EXPECT_EQ(all.columns.front(), "chain__");
  ASSERT_EQ(all.draws.rows(), 450);
  EXPECT_EQ(all.draws(150, 0), 2.0);
  EXPECT_EQ(all.draws(150, 8), chains[1].draws(0, 7));  // mu of chain 2's first draw
}

// Chains that plainly did not mix end the run with "fit failed" (exit 3) after writing their
// draws: y ~ normal(mu^2, 0.5) with y near 25 has modes at mu = -5 and 5 that no chain crosses,
// and chains start on both sides (uniform in [-2, 2]).
TEST(PvicRun, NutsChainsThatDoNotMixFailTheFit) {
  TempDir dir;
  std::ofstream(dir.path / "m.pvi") << "@partition(site)\n"
                                       "data per site { int<lower=0> N; vector[N] y; }\n"
                                       "global { real mu; }\n"
                                       "model { mu ~ normal(0, 10); y ~ normal(mu * mu, 0.5); }\n";
  std::ofstream(dir.path / "d.csv") << "site,y\n1,25\n1,25.2\n2,24.9\n2,25.1\n";
  ProcessResult r =
      run(pvic() + " run " + (dir.path / "m.pvi").string() + " --partition-data " + (dir.path / "d.csv").string() +
          " --algorithm nuts --seed 1 --progress never -o " + (dir.path / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("above 1.1: the chains did not mix"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error: the fit failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("converged"), std::string::npos) << r.out;
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  EXPECT_FALSE(summary["sampling"]["mixed"].get<bool>());
  EXPECT_GT(summary["sampling"]["max_rhat"].get<double>(), 1.1);
  EXPECT_TRUE(fs::exists(dir.path / "fit_4.csv"));
}

// Hyperparameters are sampled with the model (not fixed at 0 as pvi holds them): sigma_u is a
// column of the draws, positive and varying.
TEST(PvicRun, NutsSamplesHyperparameters) {
  TempDir dir;
  const std::string ex = example("poisson_random_effect");
  ProcessResult r = run(pvic() + " run " + ex + "/model.pvi --partition-data " + ex +
                        "/data_per_group.csv --algorithm nuts --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("1 hyperparameters"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("fixed at 0"), std::string::npos) << r.err;
  output::StanCsvFile f = output::readStanCsv(dir.path / "fit_1.csv");
  const auto k = f.columnIndex("sigma_u");
  ASSERT_TRUE(k.has_value());
  const Eigen::VectorXd sigma = f.draws.col(static_cast<Eigen::Index>(*k));
  EXPECT_GT(sigma.minCoeff(), 0.0);
  EXPECT_GT(sigma.maxCoeff() - sigma.minCoeff(), 0.1);
  ASSERT_EQ(f.adaptations.size(), 1u);
  EXPECT_EQ(f.adaptations[0].inverseMetricDiagonal.size(), 3);  // alpha, beta and sigma_u's theta
}

// A fit whose every update is rejected has not fitted anything: exit 3, the reason, and no file
// that looks like a result (six cities with prior_sd 100, started from that prior: both silos'
// updates are rejected; from the default start at N(0, I) they are not).
TEST(PvicRun, AFitThatRejectsEveryUpdateFailsAndWritesNothing) {
  TempDir dir;
  const std::string ex = example("six_cities");
  std::ofstream(dir.path / "data.json") << "{\"prior_sd\": 100}";
  ProcessResult r =
      run(pvic() + " run " + ex + "/model.pvi --data " + (dir.path / "data.json").string() + " --partition-data " + ex +
          "/data_per_silo.csv --algorithm pvi --start prior --progress never -o " + (dir.path / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("the fit failed: every one of the 2 updates was rejected"), std::string::npos) << r.err;
  // Each rejection names the partition by its label and what was not finite, by name.
  EXPECT_NE(r.err.find("rejected: partition '2' (factor 2): local optimisation failed: at a Monte Carlo draw"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("over the global 'omega' (unconstrained coordinate 5) is -inf"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("converged"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir.path / "fit.csv"));
  EXPECT_FALSE(fs::exists(dir.path / "fit-summary.json"));
}

// A fit cut short by the round limit says so instead of "converged".
TEST(PvicRun, TheRoundLimitIsNotConvergence) {
  TempDir dir;
  ProcessResult r = run(logisticRun(dir));  // --rounds 2
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("not converged: the round limit (2) was reached"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("warning: not converged"), std::string::npos) << r.err;
}

// A program without @partition is one partition, fitted from its shared data alone, as a Stan
// program is: by PVI (the server refines the one factor) and by NUTS.
TEST(PvicRun, AProgramWithoutPartitionsIsFittedWhole) {
  TempDir dir;
  std::ofstream(dir.path / "m.pvi") << "data { int<lower=0> N; vector[N] x; vector[N] y; }\n"
                                       "global { real alpha; real beta; }\n"
                                       "model { alpha ~ normal(0, 10); beta ~ normal(0, 10);\n"
                                       "        y ~ normal(alpha + beta * x, 0.5); }\n";
  std::ofstream(dir.path / "d.json") << R"({"N": 6, "x": [1, 2, 3, 4, 5, 6], "y": [1.2, 1.9, 3.1, 4.2, 4.8, 6.1]})";
  const std::string base = pvic() + " run " + (dir.path / "m.pvi").string() + " --data " +
                           (dir.path / "d.json").string() + " --progress never";
  ProcessResult pvi = run(base + " -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(pvi.exitCode, 0) << pvi.err;
  EXPECT_NE(pvi.out.find("one partition (the whole model: it has no @partition)"), std::string::npos) << pvi.out;
  ProcessResult nuts = run(base + " --algorithm nuts -o " + (dir.path / "nuts.csv").string());
  ASSERT_EQ(nuts.exitCode, 0) << nuts.err;
  // Both against beta's conjugate posterior (known noise sd 0.5, normal(0, 10) priors): precision
  // X'X / 0.25 + I / 100 gives mean 0.97992 and sd 0.11941. Tolerances: 0.25 posterior sd for the
  // mean and 15% for the sd (4,000 NUTS draws have an MCSE near 0.02 sd; PVI's Monte Carlo error
  // is of the same order).
  std::size_t checked = 0;
  for (const char* file : {"fit-summary.json", "nuts-summary.json"}) {
    const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / file));
    for (const auto& p : summary["parameters"]) {
      if (p["name"] != "beta") continue;
      EXPECT_NEAR(p["mean"].get<double>(), 0.97992, 0.25 * 0.11941) << file;
      EXPECT_NEAR(p["sd"].get<double>(), 0.11941, 0.15 * 0.11941) << file;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2u);
}

// Every variational fit reports the Pareto k-hat of p / q over its draws: computed from the draws
// file's own log_p__ and log_g__ columns (q's own draws with --resample none), printed, and in the
// summary JSON.
TEST(PvicRun, VariationalFitsReportParetoKhat) {
  TempDir dir;
  ProcessResult r = run(logisticRun(dir) + " --resample none");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  ASSERT_TRUE(summary["pareto_khat"].is_number()) << summary["pareto_khat"];
  const double khat = summary["pareto_khat"];
  output::StanCsvFile csv = output::readStanCsv(dir.path / "fit.csv");
  const Eigen::VectorXd logRatios = csv.draws.col(1) - csv.draws.col(2);
  EXPECT_NEAR(khat, diagnostics::paretoKhat(logRatios), 1e-9);
  char shown[16];
  std::snprintf(shown, sizeof shown, "k-hat %.2f", khat);
  EXPECT_NE((r.out + r.err).find(shown), std::string::npos) << r.out << r.err;
  // This short fit (2 rounds of 40 steps) is no approximation to trust (k-hat 13 measured): the
  // warning says so and names nuts.
  EXPECT_GT(khat, 0.7);
  EXPECT_NE(r.err.find("do not trust this approximation; --algorithm nuts"), std::string::npos) << r.err;
}

// By default the draws written are resampled by their Pareto-smoothed importance weights when
// k-hat allows (runtime/fit/ImportanceResampling.hpp): from 4 draws of q per draw written, and the
// run says so; --resample none writes q's own draws. (That the resample moves the draws towards
// the posterior is tested in tests/fit and, against Stan, in structured_reference_test.cpp.)
TEST(PvicRun, ResamplesTheDrawsByTheirImportanceWeightsAndSaysSo) {
  TempDir dir;
  const std::string ex = example("hierarchical_logistic");
  const std::string base = pvic() + " run " + ex + "/model.pvi --data " + ex + "/data.json --partition-data " + ex +
                           "/data_per_district.csv --seed 1 --progress never";
  const ProcessResult r = run(base + " -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  ASSERT_LE(summary["pareto_khat"].get<double>(), 0.7) << "this test needs a fit whose weights are reliable";
  EXPECT_TRUE(summary["importance_resampled"].get<bool>());
  const double effective = summary["importance_effective_draws"];
  EXPECT_GT(effective, 0.0);
  EXPECT_LE(effective, 4000.0);
  EXPECT_NE(r.out.find("over 4000 draws"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("draws: 1000 resampled from those by their Pareto-smoothed importance weights"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(output::readStanCsv(dir.path / "fit.csv").draws.rows(), 1000);

  const ProcessResult none = run(base + " --resample none -o " + (dir.path / "q.csv").string());
  ASSERT_EQ(none.exitCode, 0) << none.err;
  const nlohmann::json q = nlohmann::json::parse(slurp(dir.path / "q-summary.json"));
  EXPECT_FALSE(q["importance_resampled"].get<bool>());
  EXPECT_NE(none.out.find("over 1000 draws"), std::string::npos) << none.out;
  EXPECT_EQ(none.out.find("resampled"), std::string::npos) << none.out;
}

// Latents without a prior statement get an improper flat prior, and a proper posterior is still
// found: here beta's is N(0.98, 0.1195^2) exactly (least squares with known noise sd 0.5).
TEST(PvicRun, FlatPriorsStillFindTheProperPosterior) {
  TempDir dir;
  std::ofstream(dir.path / "m.pvi") << "@partition(site)\n"
                                       "data per site { int<lower=0> N; vector[N] x; vector[N] y; }\n"
                                       "global { real alpha; real beta; }\n"
                                       "model { y ~ normal(alpha + beta * x, 0.5); }\n";
  std::ofstream(dir.path / "d.csv") << "site,x,y\n1,1,1.2\n1,2,1.9\n1,3,3.1\n2,4,4.2\n2,5,4.8\n2,6,6.1\n";
  ProcessResult r = run(pvic() + " run " + (dir.path / "m.pvi").string() + " --partition-data " +
                        (dir.path / "d.csv").string() + " --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("'beta' has no prior statement; it gets an improper flat prior"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("the server refines it as factor 0"), std::string::npos) << r.out;
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  std::size_t checked = 0;
  for (const auto& p : summary["parameters"]) {
    if (p["name"] != "beta") continue;
    EXPECT_NEAR(p["mean"].get<double>(), 0.98, 0.25 * 0.1195);
    EXPECT_NEAR(p["sd"].get<double>(), 0.1195, 0.15 * 0.1195);
    ++checked;
  }
  EXPECT_EQ(checked, 1u);
}

// A value that overflows the model (one smoke cell of 1e308 in silo 1) fails the fit, and the
// message names the partition and what was not finite.
TEST(PvicRun, ANonFiniteModelNamesThePartition) {
  TempDir dir;
  const std::string ex = example("six_cities");
  std::string data = slurp(ex + "/data_per_silo.csv");
  const std::string row = "\n1,300,1,-1,0,0\n";  // silo 1's second row: silo, C, child, age, smoke, wheeze
  const std::size_t at = data.find(row);
  ASSERT_NE(at, std::string::npos);
  data.replace(at, row.size(), "\n1,300,1,-1,1e308,0\n");
  std::ofstream(dir.path / "d.csv") << data;
  ProcessResult r = run(pvic() + " run " + ex + "/model.pvi --data " + ex + "/data.json --partition-data " +
                        (dir.path / "d.csv").string() + " --progress never -o " + (dir.path / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("partition '1'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the factor's log density is -inf"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.path / "fit.csv"));
}

// An index out of range at run time names the statement (line, column and text) and the partition.
TEST(PvicRun, AnIndexOutOfRangeNamesTheStatementAndThePartition) {
  TempDir dir;
  const std::string ex = example("poisson_random_effect");
  std::string model = slurp(ex + "/model.pvi");
  const std::string likelihood = "  y ~ poisson_log(alpha + beta * x + u);";
  const std::size_t at = model.find(likelihood);
  ASSERT_NE(at, std::string::npos);
  model.replace(at, likelihood.size(), "  for (n in 1:N) y[n] ~ poisson_log(alpha + beta * x[n + 1] + u);");
  std::ofstream(dir.path / "model.pvi") << model;
  const ProcessResult r = run(pvic() + " run " + (dir.path / "model.pvi").string() + " --partition-data " + ex +
                              "/data_per_group.csv --progress never -o " + (dir.path / "fit.csv").string());
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("an index is out of range, at 34:18: y[n] ~ poisson_log(alpha + beta * x[n + 1] + u);"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("partition '"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.path / "fit.csv"));
}

TEST(PvicRun, ProgressLineOnRequest) {
  TempDir dir;
  std::string command = logisticRun(dir);
  command.replace(command.find("--progress never"), 16, "--progress always");
  ProcessResult r = run(command);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("round 1/2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ELBO"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("elapsed"), std::string::npos) << r.err;
  ProcessResult quiet = run(logisticRun(dir));  // not a terminal, --progress never: no progress line
  EXPECT_EQ(quiet.err.find("round 1/"), std::string::npos) << quiet.err;
}

TEST(PvicRun, HelpShowsOptionsWithDefaults) {
  ProcessResult r = run(pvic() + " run --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("--algorithm"), std::string::npos);
  EXPECT_NE(r.out.find("auto"), std::string::npos);
  EXPECT_NE(r.out.find("--partition-by"), std::string::npos);
}

// Bad input: each gets a clear message naming the problem and a documented non-zero exit code.
struct BadInput : ::testing::Test {
  TempDir dir;
  std::string ex = example("logistic_regression");
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir.path / name, std::ios::binary) << text;
    return (dir.path / name).string();
  }
  ProcessResult runWith(const std::string& args) {
    return run(pvic() + " run " + ex + "/model.pvi" + kQuick + " -o " + (dir.path / "fit.csv").string() + " " + args);
  }
  std::string csv() { return " --partition-data " + ex + "/data_per_client.csv"; }
  // One e-mail's 57 features as a JSON array.
  static std::string featureRow() {
    std::string row = "[";
    for (int d = 0; d < 57; ++d) row += (d ? ",0.5" : "0.5");
    return row + "]";
  }
  std::string json() { return " --data " + ex + "/data.json"; }
};

TEST_F(BadInput, MissingDataFile) {
  ProcessResult r = runWith("--data " + (dir.path / "nope.json").string() + csv());
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("nope.json"), std::string::npos) << r.err;
}

TEST_F(BadInput, MissingVariable) {
  nlohmann::json data = nlohmann::json::parse(slurp(ex + "/data.json"));
  data.erase("prior_sd");
  ProcessResult r = runWith("--data " + write("d.json", data.dump()) + csv());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("prior_sd"), std::string::npos) << r.err;
}

// A key the model does not declare is ignored, as CmdStan ignores it, and a note names it.
TEST_F(BadInput, ExtraVariableIsIgnoredWithANote) {
  nlohmann::json data = nlohmann::json::parse(slurp(ex + "/data.json"));
  data["prior_sx"] = 1;
  ProcessResult r = runWith("--data " + write("d.json", data.dump()) + csv());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("note: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ignored the key 'prior_sx', which the model does not declare"), std::string::npos) << r.err;
}

TEST_F(BadInput, WrongShape) {
  nlohmann::json data = nlohmann::json::parse(slurp(ex + "/data.json"));
  data["X_test"][5].erase(0);  // one row one feature short
  ProcessResult r = runWith("--data " + write("d.json", data.dump()) + csv());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("X_test"), std::string::npos) << r.err;
}

TEST_F(BadInput, OutOfBoundsValue) {
  nlohmann::json data = nlohmann::json::parse(slurp(ex + "/data.json"));
  data["prior_sd"] = -1;
  ProcessResult r = runWith("--data " + write("d.json", data.dump()) + csv());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("prior_sd"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("lower"), std::string::npos) << r.err;
}

TEST_F(BadInput, NaNInPartitionCsvNamesTheLine) {
  std::string text = slurp(ex + "/data_per_client.csv");
  // The third line's first feature becomes NaN.
  std::size_t line3 = text.find('\n', text.find('\n') + 1) + 1;
  std::size_t cell = text.find(',', text.find(',', line3) + 1) + 1;
  text.replace(cell, text.find(',', cell) - cell, "NaN");
  ProcessResult r = runWith(json() + " --partition-data " + write("p.csv", text));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("p.csv:3:"), std::string::npos) << r.err;  // the file and the line of the NaN
  EXPECT_NE(r.err.find("NaN"), std::string::npos) << r.err;
}

TEST_F(BadInput, TruncatedJson) {
  std::string data = slurp(ex + "/data.json");
  ProcessResult r = runWith("--data " + write("t.json", data.substr(0, data.size() / 2)) + csv());
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("t.json"), std::string::npos) << r.err;
}

TEST_F(BadInput, SinglePartition) {
  std::string text = slurp(ex + "/data_per_client.csv");
  std::string one = text.substr(0, text.find('\n') + 1);
  std::istringstream lines(text.substr(one.size()));
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("1,", 0) == 0) one += line + "\n";
  ProcessResult r = runWith(json() + " --partition-data " + write("one.csv", one));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("client"), std::string::npos) << r.err;
}

TEST_F(BadInput, UnknownPartitionColumn) {
  ProcessResult r = runWith(json() + csv() + " --partition-by silo");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("silo"), std::string::npos) << r.err;
}

// NUTS's options are refused by name before anything runs.
TEST_F(BadInput, BadSamplerOptions) {
  const std::pair<const char*, const char*> cases[] = {
      {" --algorithm nuts --adapt-delta 1.5", "--adapt-delta"},
      {" --algorithm nuts --chains 0", "--chains"},
      {" --algorithm nuts --max-depth 0", "--max-depth"},
      {" --algorithm nuts --metric dense", "--adaptation windowed"},
      {" --algorithm nuts --theta 0.5", "--theta"},
  };
  for (const auto& [options, expected] : cases) {
    ProcessResult r = runWith(json() + csv() + options);
    EXPECT_EQ(r.exitCode, 1) << options << "\n" << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << options << "\n" << r.err;
  }
  ProcessResult r = runWith(json() + csv() + " --algorithm nuts --metric unit");
  EXPECT_EQ(r.exitCode, 2) << r.err;
}

TEST_F(BadInput, EpWithTooFewDrawsPerUpdate) {
  ProcessResult r = runWith(json() + csv() + " --algorithm ep --ep-samples 2");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("needs --ep-samples above D + 2"), std::string::npos) << r.err;
}

TEST_F(BadInput, UnknownAlgorithmIsAUsageError) {
  ProcessResult r = runWith(json() + csv() + " --algorithm hmc");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("hmc"), std::string::npos) << r.err;
}

TEST_F(BadInput, UnwritableOutput) {
  ProcessResult r = run(pvic() + " run " + ex + "/model.pvi" + kQuick + json() + csv() + " -o " +
                        (dir.path / "no" / "such" / "dir" / "fit.csv").string());
  EXPECT_EQ(r.exitCode, 4);
  EXPECT_NE(r.err.find("fit.csv"), std::string::npos) << r.err;
}

TEST_F(BadInput, PartitionLabelsThatDoNotMatchTheFiles) {
  const std::string a = write("a.json", R"({"N": 1, "X": [)" + featureRow() + R"(], "y": [1]})");
  ProcessResult r = runWith(json() + " --partition-data " + a + " --partition-data " + a +
                            " --partition-label north --partition-label south --partition-label east");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("label"), std::string::npos) << r.err;
}

TEST_F(BadInput, EmptyPartition) {
  const std::string full =
      write("full.json", R"({"N": 2, "X": [)" + featureRow() + "," + featureRow() + R"(], "y": [1, 0]})");
  const std::string empty = write("empty.json", R"({"N": 0, "X": [], "y": []})");
  ProcessResult r = runWith(json() + " --partition-data " + full + " --partition-data " + empty);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("empty"), std::string::npos) << r.err;
}

// The files in a run's directory, sorted.
std::vector<std::string> entriesOf(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Partition labels name the locals' directories: a label that cannot be one is refused with the
// data errors (exit 1, file:line, the label) before the fit, and nothing is written. It used to be
// found after the fit, with exit 3 and fit.csv, fit-summary.json and part of fit-locals/ left.
TEST_F(BadInput, PartitionLabelThatCannotNameADirectory) {
  ex = example("hierarchical_logistic");
  const std::string text = slurp(ex + "/data_per_district.csv");
  ASSERT_EQ(text.rfind("district,use,", 0), 0u);
  const std::size_t row2 = text.find('\n') + 1;  // line 2 starts with district 1's label
  ASSERT_EQ(text.compare(row2, 2, "1,"), 0);
  struct Case {
    std::string cell, shown;
  };
  for (const Case& c :
       std::vector<Case>{{".", "\".\""},
                         {"..", "\"..\""},
                         {"a/b", "\"a/b\""},
                         {"../escape", "\"../escape\""},
                         {"\"line\nbreak\"", "\"line\\x0Abreak\""},
                         {std::string(300, 'd'), "\"" + std::string(60, 'd') + "...\" (300 characters)"}}) {
    std::string bad = text;
    bad.replace(row2, 1, c.cell);
    const std::string csv = write("p.csv", bad);
    ProcessResult r = run(pvic() + " run " + ex + "/model.pvi" + kQuick + " -o " + (dir.path / "fit.csv").string() +
                          " --data " + ex + "/data.json --partition-data " + csv);
    EXPECT_EQ(r.exitCode, 1) << c.cell << "\n" << r.err;
    EXPECT_NE(r.err.find("p.csv:2: column 'district': the partition label " + c.shown +
                         " cannot name the district's output directory"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(entriesOf(dir.path), std::vector<std::string>{"p.csv"}) << c.cell;  // no fit.csv, summary, locals
  }
}

// A run whose outputs cannot all be written leaves none of them (exit 4), not a fit.csv and a
// summary without the rest.
TEST_F(BadInput, FailedOutputsLeaveNothingBehind) {
  ex = example("hierarchical_logistic");
  const std::string data = " --data " + ex + "/data.json --partition-data " + ex + "/data_per_district.csv";
  const std::string blocker = write("blocker", "a file where a directory must go\n");
  for (const std::string& option : {std::string(" --report "), std::string(" --locals-dir ")}) {
    ProcessResult r = run(pvic() + " run " + ex + "/model.pvi" + kQuick + " -o " + (dir.path / "fit.csv").string() +
                          data + option + blocker);
    EXPECT_EQ(r.exitCode, 4) << option << r.err;
    EXPECT_NE(r.err.find("blocker"), std::string::npos) << r.err;
    EXPECT_EQ(entriesOf(dir.path), std::vector<std::string>{"blocker"}) << option;
    EXPECT_EQ(slurp(blocker), "a file where a directory must go\n");
  }
}

// A size equality the compiler could not decide (docs/language.md, "Symbolic sizes") is checked
// when the data are bound: a data error naming the partition, the statement and both sizes.
TEST_F(BadInput, SizesThatMustAgreeDiffer) {
  std::string model = write("nm.pvi", R"(@partition(silo)
data { int K; }
data per silo { int N; int M; vector[N] y; matrix[M, K] X; }
global { vector[K] beta; }
model {
  beta ~ normal(0, 1);
  y ~ normal(X * beta, 1);
}
)");
  std::string shared = write("shared.json", R"({"K": 1})");
  std::string good = write("north.json", R"({"N": 2, "M": 2, "y": [1, 2], "X": [[1], [2]]})");
  std::string bad = write("south.json", R"({"N": 2, "M": 3, "y": [1, 2], "X": [[1], [2], [3]]})");
  ProcessResult r = run(pvic() + " run " + model + kQuick + " -o " + (dir.path / "fit.csv").string() + " --data " +
                        shared + " --partition-data " + good + " --partition-data " + bad);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("data per silo south: sizes that must be equal differ: N = 2 but M = 3"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("'y ~ normal(X * beta, 1);' at 7:7"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.path / "fit.csv"));
  r = run(pvic() + " run " + model + kQuick + " -o " + (dir.path / "fit.csv").string() + " --data " + shared +
          " --partition-data " + good + " --partition-data " + good + " --partition-label a --partition-label b");
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST_F(BadInput, InvalidModel) {
  std::string model = write("bad.pvi", "global { real a; } model { a ~ normal(0, s); }");
  ProcessResult r = run(pvic() + " run " + model + kQuick);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("bad.pvi:1:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pvi::test
