// Stan CSV of MCMC draws: CmdStan's `method = sample` layout (header keys, column order, integer
// sampler columns, adaptation and timing blocks), the merged all-chains file, per-partition locals,
// a write/read round trip, and clear errors on inconsistent input.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "OutputTestSupport.hpp"
#include "runtime/output/Output.hpp"

namespace pvi::output {
namespace {

using test::lines;
using test::parseError;
using test::TempDir;

RunInfo nutsRun() {
  RunInfo run;
  run.model = "eight_schools";
  run.dataFiles = {"data/eight_schools.json"};
  run.algorithm = "nuts";
  run.options = {{"chains", "4"}, {"metric", "diag_e"}, {"note", "two\nlines"}};
  run.seed = 42;
  run.outputFile = "fit.csv";
  run.startDatetime = "2025-01-02 03:04:05 UTC";
  return run;
}

// `draws` draws of 4 parameters and 1 generated quantity; draw 3 (index 2) is divergent.
ChainSamples sampleChain(std::size_t id, int draws = 5) {
  ChainSamples c;
  c.chainId = id;
  c.draws.columns = {"mu", "tau", "theta.1", "theta.2", "y_rep.1"};
  c.draws.numParameters = 4;
  c.draws.values.resize(draws, 5);
  SamplerDiagnosticsColumns& s = c.sampler;
  s.resize(draws);
  for (int i = 0; i < draws; ++i) {
    for (int j = 0; j < 5; ++j) c.draws.values(i, j) = 100.0 * id + i + j / 10.0 + 1.0 / 3.0;
    s.lp[i] = -7.25 - i;
    s.acceptStat[i] = 0.875 + 0.01 * i;
    s.stepSize[i] = 0.35;
    s.energy[i] = 9.5 + i;
    s.treeDepth[i] = 2 + i % 2;
    s.leapfrogs[i] = 3 + 4 * (i % 2);
    s.divergent[i] = i == 2 ? 1 : 0;
  }
  c.stepSize = 0.35;
  c.inverseMetricDiagonal = Eigen::Vector4d(1.5, 0.25, 2.0, 1.0 / 3.0);
  c.warmupSeconds = 0.1234;
  c.samplingSeconds = 0.4567 * static_cast<double>(id);
  return c;
}

ChainSamples denseChain() {
  ChainSamples c = sampleChain(1);
  c.metric = "dense_e";
  c.inverseMetricDiagonal.resize(0);
  c.inverseMetricDense.resize(2, 2);
  c.inverseMetricDense << 1.5, 0.25, 0.25, 2.0;
  return c;
}

std::string written(const ChainSamples& c) {
  std::ostringstream os;
  writeStanSamplingCsv(os, nutsRun(), c);
  return os.str();
}

// Index of the first line equal to `line`, or lines.size().
std::size_t find(const std::vector<std::string>& text, const std::string& line) {
  return static_cast<std::size_t>(std::find(text.begin(), text.end(), line) - text.begin());
}

std::size_t columnHeaderIndex(const std::vector<std::string>& text) {
  std::size_t i = 0;
  while (i < text.size() && text[i].starts_with("#")) ++i;
  return i;
}

TEST(StanSamplingCsv, HeaderFollowsCmdStanSampleConfiguration) {
  const std::vector<std::string> text = lines(written(sampleChain(3)));
  EXPECT_EQ(text[0], "# model = eight_schools");
  EXPECT_EQ(text[1], "# start_datetime = 2025-01-02 03:04:05 UTC");
  EXPECT_TRUE(text[2].starts_with("# pvic_version = ")) << text[2];
  const std::vector<std::string> method = {"# method = sample (Default)",
                                           "#   sample",
                                           "#     num_samples = 5",
                                           "#     num_warmup = 1000 (Default)",
                                           "#     save_warmup = 0 (Default)",
                                           "#     thin = 1 (Default)",
                                           "#     adapt",
                                           "#       engaged = 1 (Default)",
                                           "#       gamma = 0.05 (Default)",
                                           "#       delta = 0.8 (Default)",
                                           "#       kappa = 0.75 (Default)",
                                           "#       t0 = 10 (Default)",
                                           "#       init_buffer = 75 (Default)",
                                           "#       term_buffer = 50 (Default)",
                                           "#       window = 25 (Default)",
                                           "#     algorithm = hmc (Default)",
                                           "#       hmc",
                                           "#         engine = nuts (Default)",
                                           "#           nuts",
                                           "#             max_depth = 10 (Default)",
                                           "#         metric = diag_e (Default)",
                                           "#         stepsize = 1 (Default)",
                                           "#         stepsize_jitter = 0 (Default)",
                                           "#   pvi",
                                           "#     pvi_algorithm = nuts",
                                           "#     pvi_chains = 4",  // pvic's options cannot shadow Stan's keys
                                           "#     pvi_metric = diag_e",
                                           "#     note = two lines",
                                           "# id = 3",
                                           "# data",
                                           "#   file = data/eight_schools.json",
                                           "# random",
                                           "#   seed = 42",
                                           "# output",
                                           "#   file = fit.csv"};
  ASSERT_GE(text.size(), 3 + method.size());
  for (std::size_t i = 0; i < method.size(); ++i) EXPECT_EQ(text[3 + i], method[i]) << "line " << 3 + i;
  EXPECT_EQ(columnHeaderIndex(text), 3 + method.size());
}

TEST(StanSamplingCsv, NonDefaultSettingsAreWrittenWithoutTheDefaultMark) {
  ChainSamples c = denseChain();
  c.numWarmup = 0;
  c.maxDepth = 12;
  c.adaptDelta = 0.95;
  c.adapt.window = 30;
  const std::string all = written(c);
  for (const char* line :
       {"\n#     num_warmup = 0\n", "\n#       engaged = 0\n", "\n#       delta = 0.95\n", "\n#       window = 30\n",
        "\n#             max_depth = 12\n", "\n#         metric = dense_e\n"}) {
    EXPECT_NE(all.find(line), std::string::npos) << "missing line " << line;
  }
}

TEST(StanSamplingCsv, ColumnsAdaptationDrawsAndTiming) {
  const ChainSamples c = sampleChain(1);
  const std::vector<std::string> text = lines(written(c));
  const std::size_t h = columnHeaderIndex(text);
  ASSERT_EQ(text.size(), h + 5 + 5 + 5);  // header, adaptation (4 lines), 5 draws, timing (5 lines)
  EXPECT_EQ(
      text[h],
      "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,mu,tau,theta.1,theta.2,y_rep.1");
  EXPECT_EQ(text[h + 1], "# Adaptation terminated");
  EXPECT_EQ(text[h + 2], "# Step size = 0.35");
  EXPECT_EQ(text[h + 3], "# Diagonal elements of inverse mass matrix:");
  EXPECT_EQ(text[h + 4], "# 1.5, 0.25, 2, 0.3333333333333333");
  EXPECT_EQ(text[h + 5],
            "-7.25,0.875,0.35,2,3,0,9.5,100.33333333333333,100.43333333333332,100.53333333333333,100.63333333333333,"
            "100.73333333333333");
  EXPECT_EQ(text[h + 7],
            "-9.25,0.895,0.35,2,3,1,11.5,102.33333333333333,102.43333333333332,102.53333333333333,"
            "102.63333333333333,102.73333333333333");  // the divergent draw
  // treedepth__, n_leapfrog__ and divergent__ are integers (CmdStanPy reads them with int()).
  for (std::size_t i = h + 5; i < h + 10; ++i) {
    std::vector<std::string> fields;
    std::stringstream row(text[i]);
    for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
    ASSERT_EQ(fields.size(), 12u);
    for (int k : {3, 4, 5}) EXPECT_EQ(fields[k].find_first_not_of("0123456789"), std::string::npos) << text[i];
  }
  EXPECT_EQ(text[h + 10], "# ");
  EXPECT_EQ(text[h + 11], "#  Elapsed Time: 0.123 seconds (Warm-up)");
  EXPECT_EQ(text[h + 12], "#                0.457 seconds (Sampling)");
  EXPECT_EQ(text[h + 13], "#                0.580 seconds (Total)");
  EXPECT_EQ(text[h + 14], "# ");
}

TEST(StanSamplingCsv, DenseMetricIsOneLinePerRow) {
  const std::vector<std::string> text = lines(written(denseChain()));
  const std::size_t h = columnHeaderIndex(text);
  EXPECT_EQ(text[h + 3], "# Elements of inverse mass matrix:");
  EXPECT_EQ(text[h + 4], "# 1.5, 0.25");
  EXPECT_EQ(text[h + 5], "# 0.25, 2");
  EXPECT_TRUE(text[h + 6].starts_with("-7.25,")) << text[h + 6];
}

TEST(StanSamplingCsv, WriteThenReadRoundTrips) {
  TempDir dir;
  for (const ChainSamples& c : {sampleChain(2), denseChain()}) {
    writeStanSamplingCsv(dir / "fit_2.csv", nutsRun(), c);
    const StanCsvFile f = readStanCsv(dir / "fit_2.csv");
    EXPECT_EQ(f.config.at("method"), "sample");
    EXPECT_EQ(f.config.at("num_samples"), "5");
    EXPECT_EQ(f.config.at("id"), std::to_string(c.chainId));
    EXPECT_EQ(f.config.at("metric"), c.metric);
    EXPECT_FALSE(f.mean);
    ASSERT_EQ(f.columns.size(), 12u);
    EXPECT_EQ(f.columns[5], "divergent__");
    EXPECT_EQ(f.columnIndex("theta.2"), std::optional<std::size_t>(10));
    ASSERT_EQ(f.draws.rows(), 5);
    EXPECT_EQ(f.draws.rightCols(5), c.draws.values);  // exact: round-trip formatting
    EXPECT_EQ(f.draws.col(0), c.sampler.lp);
    EXPECT_EQ(f.draws.col(3), c.sampler.treeDepth.cast<double>());
    EXPECT_EQ(f.draws.col(4), c.sampler.leapfrogs.cast<double>());
    EXPECT_EQ(f.draws.col(5), c.sampler.divergent.cast<double>());
    EXPECT_EQ(f.draws.col(6), c.sampler.energy);
    ASSERT_EQ(f.adaptations.size(), 1u);
    EXPECT_EQ(f.adaptations[0].stepSize, 0.35);
    EXPECT_EQ(f.adaptations[0].inverseMetricDiagonal, c.inverseMetricDiagonal);
    EXPECT_EQ(f.adaptations[0].inverseMetricDense, c.inverseMetricDense);
    ASSERT_TRUE(f.timing);
    EXPECT_NEAR(f.timing->warmupSeconds, c.warmupSeconds, 5e-4);
    EXPECT_NEAR(f.timing->samplingSeconds, c.samplingSeconds, 5e-4);
    EXPECT_NEAR(f.timing->totalSeconds, c.warmupSeconds + c.samplingSeconds, 1e-3);
  }
}

TEST(StanSamplingCsv, MergedFileHasChainColumnFirstAndEveryChainsAdaptation) {
  const std::vector<ChainSamples> chains = {sampleChain(1), sampleChain(2), sampleChain(3)};
  std::ostringstream os;
  writeStanSamplingCsvMerged(os, nutsRun(), chains);
  const std::vector<std::string> text = lines(os.str());
  const std::size_t h = columnHeaderIndex(text);
  EXPECT_EQ(text[h],
            "chain__,lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,mu,tau,"
            "theta.1,theta.2,y_rep.1");
  EXPECT_NE(find(text, "#     num_samples = 5"), text.size());  // per chain, as in each chain's own file
  EXPECT_NE(find(text, "#     chains = 3"), text.size());
  EXPECT_NE(find(text, "#     merged_chain_ids = 1,2,3"), text.size());
  EXPECT_NE(find(text, "# id = 1"), text.size());
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t block = h + 1 + k * 10;  // "# Chain k", adaptation (4 lines), 5 draws
    EXPECT_EQ(text[block], "# Chain " + std::to_string(k + 1) + ": warm-up 0.123 s, sampling " +
                               (k == 0   ? "0.457"
                                : k == 1 ? "0.913"
                                         : "1.370") +
                               " s");
    EXPECT_EQ(text[block + 1], "# Adaptation terminated");
    for (std::size_t i = 0; i < 5; ++i) EXPECT_TRUE(text[block + 5 + i].starts_with(std::to_string(k + 1) + ",-"));
  }
  EXPECT_EQ(text[h + 31], "# ");
  EXPECT_EQ(text[h + 32], "#  Elapsed Time: 0.370 seconds (Warm-up)");  // sums over the chains
  EXPECT_EQ(text[h + 33], "#                2.740 seconds (Sampling)");

  std::istringstream in(os.str());
  const StanCsvFile f = parseStanCsv(in, "merged.csv");
  ASSERT_EQ(f.draws.rows(), 15);
  EXPECT_EQ(f.draws(14, 0), 3.0);
  EXPECT_EQ(f.draws.block(10, 8, 5, 5), chains[2].draws.values);
  EXPECT_EQ(f.adaptations.size(), 3u);
}

TEST(StanSamplingCsv, ChainFileNamesFollowCmdStan) {
  EXPECT_EQ(chainCsvPath("out/fit.csv", 2), std::filesystem::path("out/fit_2.csv"));
  EXPECT_EQ(chainCsvPath("fit", 10), std::filesystem::path("fit_10"));
}

// The message of the std::invalid_argument writing `c` throws ("" when it writes).
std::string problem(const ChainSamples& c) {
  try {
    written(c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string mergedProblem(const std::vector<ChainSamples>& chains) {
  std::ostringstream os;
  try {
    writeStanSamplingCsvMerged(os, nutsRun(), chains);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(StanSamplingCsv, InconsistentInputIsRejectedWithClearMessages) {
  EXPECT_EQ(problem(sampleChain(1)), "");
  ChainSamples c = sampleChain(2);
  c.sampler.treeDepth.resize(4);
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 2): treedepth__ has 4 entries, expected 5 (one per draw)");
  c = sampleChain(1);
  c.sampler.energy.resize(6);
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): energy__ has 6 entries, expected 5 (one per draw)");
  c = sampleChain(1);
  c.draws.columns.pop_back();
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): 5 value columns but 4 names");
  c = sampleChain(1);
  c.draws.columns[1] = "bad name";
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): column names: invalid column name 'bad name'");
  c.draws.columns[1] = "energy__";
  EXPECT_EQ(problem(c),
            "Stan sampling CSV (chain 1): column name 'energy__' ends in \"__\", which marks the sampler's columns");
  c.draws.columns[1] = "mu";
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): column names: duplicate column name 'mu'");
  c = sampleChain(1);
  c.sampler.divergent[3] = 2;
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): divergent__ of draw 4 is 2, expected 0 or 1");
  c = sampleChain(1);
  c.metric = "unit_e";
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): metric 'unit_e' is not diag_e or dense_e");
  c = sampleChain(1);
  c.inverseMetricDiagonal.resize(0);
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): metric diag_e needs inverseMetricDiagonal (it is empty)");
  c = denseChain();
  c.inverseMetricDense.resize(2, 3);
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): inverseMetricDense is 2 x 3, expected a square matrix");
  c = sampleChain(1);
  c.stepSize = 0.0;
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): the step size is 0, expected a finite number > 0");
  c = sampleChain(1);
  c.samplingSeconds = -1.0;
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): the sampling time is -1, expected a finite number >= 0");
  c = sampleChain(1);
  c.adaptDelta = 1.0;
  EXPECT_EQ(problem(c), "Stan sampling CSV (chain 1): adaptDelta is 1, expected 0 < delta < 1");

  EXPECT_EQ(mergedProblem({}), "Stan sampling CSV: no chains to write");
  EXPECT_EQ(mergedProblem({sampleChain(1), sampleChain(1)}),
            "Stan sampling CSV (chain 1): the id is used by another chain");
  EXPECT_EQ(mergedProblem({sampleChain(1), sampleChain(2, 4)}),
            "Stan sampling CSV (chain 2): the columns, the number of draws or the sampler settings differ from chain "
            "1's (one header describes all chains)");
  c = sampleChain(2);
  c.draws.columns[0] = "chain__";
  EXPECT_EQ(mergedProblem({sampleChain(1), c}),
            "Stan sampling CSV (chain 2): column name 'chain__' ends in \"__\", which marks the sampler's columns");
}

TEST(StanSamplingCsv, RejectedInputCreatesNoFile) {
  TempDir dir;
  ChainSamples c = sampleChain(1);
  c.sampler.lp.resize(2);
  EXPECT_THROW(writeStanSamplingCsv(dir / "fit_1.csv", nutsRun(), c), std::invalid_argument);
  EXPECT_THROW(writeStanSamplingCsvMerged(dir / "fit.csv", nutsRun(), {sampleChain(1), c}), std::invalid_argument);
  EXPECT_TRUE(dir.entries().empty());
  EXPECT_THROW(writeStanSamplingCsv(dir / "missing" / "fit_1.csv", nutsRun(), sampleChain(1)), OutputError);
}

// A partition's locals from a sampler: one CmdStan sampling file per chain, with the chain's
// sampler columns, and a summary over all chains.
TEST(StanSamplingCsv, PartitionLocalsCarryTheSamplerLayoutPerChain) {
  TempDir dir;
  PartitionSamplingLocals p;
  p.label = "school_3";
  for (std::size_t id : {1, 2}) {
    ChainSamples c = sampleChain(id, 4);
    c.draws.columns = {"theta_raw", "theta_rep"};
    c.draws.numParameters = 1;
    c.draws.values = c.draws.values.leftCols(2).eval();
    c.inverseMetricDiagonal = Eigen::VectorXd::Constant(1, 0.5);
    p.chains.push_back(c);
  }
  const auto paths = writePartitionSamplingLocals(dir.path(), nutsRun(), p);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"school_3"});
  EXPECT_EQ(test::TempDir::entriesOf(dir / "school_3"),
            (std::vector<std::string>{"locals_1.csv", "locals_2.csv", "locals_summary.json"}));
  ASSERT_EQ(paths.size(), 3u);
  EXPECT_EQ(paths[2], dir / "school_3" / "locals_summary.json");
  for (std::size_t k = 0; k < 2; ++k) {
    const StanCsvFile f = readStanCsv(paths[k]);
    EXPECT_EQ(f.config.at("method"), "sample");
    EXPECT_EQ(f.config.at("partition"), "school_3");
    EXPECT_EQ(f.config.at("local_latents"), "1");
    EXPECT_EQ(f.config.at("generated_quantities"), "1");
    EXPECT_EQ(f.config.at("id"), std::to_string(k + 1));
    EXPECT_EQ(f.config.at("file"), paths[k].string());
    EXPECT_EQ(f.columns.front(), "lp__");
    EXPECT_EQ(f.columns.back(), "theta_rep");
    EXPECT_EQ(f.draws.rightCols(2), p.chains[k].draws.values);
    EXPECT_EQ(f.draws.col(5), p.chains[k].sampler.divergent.cast<double>());
    ASSERT_EQ(f.adaptations.size(), 1u);
    EXPECT_EQ(f.adaptations[0].inverseMetricDiagonal, p.chains[k].inverseMetricDiagonal);
  }
  const auto j = nlohmann::json::parse(test::readFile(paths[2]));
  EXPECT_EQ(j.at("chains"), 2);
  EXPECT_EQ(j.at("draws"), 8);
  EXPECT_EQ(j.at("locals").size(), 1u);
  EXPECT_DOUBLE_EQ(j.at("locals")[0].at("mean").get<double>(), (101.5 + 201.5) / 2 + 1.0 / 3.0);

  PartitionSamplingLocals bad = p;
  bad.chains[1].draws.columns[1] = "other";
  EXPECT_THROW(writePartitionSamplingLocals(dir / "x", nutsRun(), bad), std::invalid_argument);
  bad.chains.clear();
  EXPECT_THROW(writePartitionSamplingLocals(dir / "x", nutsRun(), bad), std::invalid_argument);
  bad = p;
  bad.label = "../up";
  EXPECT_THROW(writePartitionSamplingLocals(dir / "x", nutsRun(), bad), std::invalid_argument);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"school_3"});
}

TEST(StanSamplingCsv, ReaderReportsBrokenAdaptationBlocks) {
  const std::string head = "# method = sample\nlp__,a,b\n# Adaptation terminated\n";
  EXPECT_EQ(parseError(head + "# Step size = 0.5\n# Diagonal elements of inverse mass matrix:\n# 1, 2\n1,2,3\n"), "");
  EXPECT_EQ(parseError(head + "1,2,3\n"),
            "bad.csv:4: the adaptation block ends early: expected '# Step size = <number>'");
  EXPECT_EQ(parseError(head + "# Step size = x\n"), "bad.csv:4: step size value 'x' is not a number");
  EXPECT_EQ(parseError(head + "# Step size = 0.5\n# Elements of inverse mass matrix:\n# 1, 2\n# 3\n"),
            "bad.csv:7: inverse metric row has 1 values, expected 2");
  EXPECT_EQ(parseError(head + "# Step size = 0.5\n# Elements of inverse mass matrix:\n# 1, 2\n1,2,3\n"),
            "bad.csv:7: the adaptation block ends early: expected 2 rows of the inverse metric, found 1");
  EXPECT_EQ(parseError(head + "# Step size = 0.5\n# Diagonal elements of inverse mass matrix:\n# 1, z\n"),
            "bad.csv:6: inverse metric value 'z' is not a number");
  EXPECT_EQ(parseError("lp__,a\n1,2\n#  Elapsed Time: soon seconds (Warm-up)\n"),
            "bad.csv:3: time 'soon' is not a number");
  // unit_e: no metric lines after the step size.
  std::istringstream in(head + "# Step size = 0.5\n1,2,3\n");
  const StanCsvFile f = parseStanCsv(in, "unit.csv");
  ASSERT_EQ(f.adaptations.size(), 1u);
  EXPECT_EQ(f.adaptations[0].inverseMetricDiagonal.size(), 0);
  EXPECT_EQ(f.draws.rows(), 1);
}

}  // namespace
}  // namespace pvi::output
