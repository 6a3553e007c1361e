// Stan CSV draws files: the CmdStan variational layout, a bit-exact write/read round trip, and
// clear errors on malformed files.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>

#include "OutputTestSupport.hpp"
#include "runtime/output/Output.hpp"  // the umbrella header compiles on its own

namespace pvi::output {
namespace {

using test::lines;
using test::parseError;
using test::readFile;
using test::TempDir;

// Same bits, or both NaN.
bool sameDouble(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

RunInfo sampleRun() {
  RunInfo run;
  run.model = "six_cities";
  run.dataFiles = {"data/a.json", "data/b.json"};
  run.algorithm = "pvi";
  run.family = "fullrank";
  run.options = {{"schedule", "synchronous"}, {"damping", "0.5"}, {"iter", "7"}, {"note", "two\nlines"}};
  run.seed = 1234;
  run.rounds = 25;
  run.outputFile = "fit.csv";
  run.startDatetime = "2025-01-02 03:04:05 UTC";
  return run;
}

// Values that stress round-trip formatting: exact decimals, repeating binaries, extremes, subnormals,
// signed zero, non-finite, and random doubles over a wide exponent range.
StanCsvDraws sampleDraws() {
  const std::vector<double> special = {0.1,
                                       1.0 / 3.0,
                                       -0.0,
                                       5e-324,
                                       2.2250738585072014e-308,
                                       std::numeric_limits<double>::max(),
                                       -1e-300,
                                       123456789.123456789,
                                       std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(),
                                       1.0};
  StanCsvDraws d;
  d.draws.columns = {"alpha", "beta.1", "beta.2", "Sigma.1.1", "Sigma.2.1", "y_rep.1"};
  d.draws.numParameters = 5;
  const int rows = 40;
  d.draws.values.resize(rows, 6);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-300, 300);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < 6; ++j) {
      const int k = i * 6 + j;
      d.draws.values(i, j) =
          k < static_cast<int>(special.size()) ? special[k] : std::ldexp(mantissa(rng), exponent(rng));
    }
  }
  d.mean = Eigen::VectorXd::LinSpaced(6, -1.0 / 7.0, 22.0 / 7.0);
  d.logP = Eigen::VectorXd::Random(rows) * 1000.0;
  d.logG = Eigen::VectorXd::Random(rows);
  return d;
}

TEST(StanCsv, FollowsCmdStanVariationalLayout) {
  std::ostringstream os;
  const StanCsvDraws d = sampleDraws();
  writeStanCsv(os, sampleRun(), d);
  const std::vector<std::string> text = lines(os.str());
  ASSERT_GT(text.size(), 10u);
  EXPECT_EQ(text[0], "# model = six_cities");
  std::size_t header = 0;
  while (header < text.size() && text[header].starts_with("#")) ++header;
  ASSERT_LT(header + 3, text.size());
  EXPECT_EQ(text[header], "lp__,log_p__,log_g__,alpha,beta.1,beta.2,Sigma.1.1,Sigma.2.1,y_rep.1");
  EXPECT_EQ(text[header + 1], "# Stepsize adaptation complete.");
  EXPECT_EQ(text[header + 2], "# eta = 1");
  EXPECT_TRUE(text[header + 3].starts_with("0,0,0,")) << text[header + 3];  // the mean row
  EXPECT_EQ(text.size(), header + 3 + 1 + static_cast<std::size_t>(d.draws.values.rows()));
  // Nested CmdStan-style configuration, as CmdStanPy's from_csv needs it.
  const std::string all = os.str();
  for (const char* line :
       {"\n# method = variational\n#   variational\n", "\n#     algorithm = fullrank\n", "\n#       fullrank\n",
        "\n#     iter = 25\n", "\n#     output_samples = 40\n", "\n#     pvi_algorithm = pvi\n",
        "\n#     schedule = synchronous\n", "\n#     pvi_iter = 7\n", "\n#     note = two lines\n",
        "\n#   seed = 1234\n", "\n#     sampler_t = pvi(fullrank)\n", "\n#   file = data/a.json\n",
        "\n#   file = data/b.json\n", "\n# start_datetime = 2025-01-02 03:04:05 UTC\n"}) {
    EXPECT_NE(all.find(line), std::string::npos) << "missing line " << line;
  }
}

// rstan's print fails on a file whose method is "variational" (it wants the Pareto k values only
// its own vb() computes). rstan keeps the first value of a repeated key, CmdStanPy and ArviZ the
// last and skip lines with two '=': the first method line is for rstan only.
TEST(StanCsv, RstanReadsAnotherMethodThanCmdStanPy) {
  std::ostringstream os;
  writeStanCsv(os, sampleRun(), sampleDraws());
  const std::vector<std::string> text = lines(os.str());
  std::vector<std::string> methods;
  for (const std::string& line : text) {
    if (line.starts_with("# method = ")) methods.push_back(line);
  }
  ASSERT_EQ(methods.size(), 2u);
  EXPECT_EQ(methods[0], "# method = pvic = rstan reads this first method line, CmdStanPy and ArviZ the next one");
  EXPECT_EQ(std::count(methods[0].begin(), methods[0].end(), '='), 2);
  EXPECT_EQ(methods[1], "# method = variational");
  std::istringstream in(os.str());
  EXPECT_EQ(parseStanCsv(in, "fit.csv").config.at("method"), "variational");  // our reader: the last wins
}

TEST(StanCsv, WriteThenReadIsBitExact) {
  TempDir dir;
  const StanCsvDraws d = sampleDraws();
  writeStanCsv(dir / "fit.csv", sampleRun(), d);
  const StanCsvFile f = readStanCsv(dir / "fit.csv");

  std::vector<std::string> expectedColumns = {"lp__", "log_p__", "log_g__"};
  expectedColumns.insert(expectedColumns.end(), d.draws.columns.begin(), d.draws.columns.end());
  EXPECT_EQ(f.columns, expectedColumns);
  ASSERT_TRUE(f.mean.has_value());
  ASSERT_EQ(f.mean->size(), 9);
  EXPECT_EQ((*f.mean)[0], 0.0);
  for (int j = 0; j < 6; ++j) EXPECT_TRUE(sameDouble((*f.mean)[3 + j], d.mean[j])) << j;
  ASSERT_EQ(f.draws.rows(), d.draws.values.rows());
  ASSERT_EQ(f.draws.cols(), 9);
  for (Eigen::Index i = 0; i < f.draws.rows(); ++i) {
    EXPECT_EQ(f.draws(i, 0), 0.0);
    EXPECT_TRUE(sameDouble(f.draws(i, 1), d.logP[i])) << i;
    EXPECT_TRUE(sameDouble(f.draws(i, 2), d.logG[i])) << i;
    for (Eigen::Index j = 0; j < 6; ++j) {
      EXPECT_TRUE(sameDouble(f.draws(i, 3 + j), d.draws.values(i, j)))
          << "row " << i << " column " << j << ": " << f.draws(i, 3 + j) << " vs " << d.draws.values(i, j);
    }
  }
  EXPECT_TRUE(std::signbit(f.draws(0, 5)));  // -0.0 keeps its sign

  EXPECT_EQ(f.config.at("model"), "six_cities");
  EXPECT_EQ(f.config.at("method"), "variational");
  EXPECT_EQ(f.config.at("algorithm"), "fullrank");
  EXPECT_EQ(f.config.at("iter"), "25");
  EXPECT_EQ(f.config.at("eta"), "1");  // "(Default)" stripped
  EXPECT_EQ(f.config.at("output_samples"), "40");
  EXPECT_EQ(f.config.at("pvi_algorithm"), "pvi");
  EXPECT_EQ(f.config.at("damping"), "0.5");
  EXPECT_EQ(f.config.at("seed"), "1234");
  EXPECT_FALSE(f.config.at("pvic_version").empty());
  EXPECT_EQ(f.comments.front(), " model = six_cities");
  EXPECT_NE(std::find(f.comments.begin(), f.comments.end(), " Stepsize adaptation complete."), f.comments.end());
  EXPECT_EQ(f.columnIndex("beta.2"), std::optional<std::size_t>(5));
  EXPECT_EQ(f.columnIndex("gamma"), std::nullopt);
}

TEST(StanCsv, MissingLogDensitiesAreWrittenAsZero) {
  StanCsvDraws d = sampleDraws();
  d.logP.resize(0);
  d.logG.resize(0);
  std::ostringstream os;
  writeStanCsv(os, sampleRun(), d);
  std::istringstream in(os.str());
  const StanCsvFile f = parseStanCsv(in, "mem");
  EXPECT_TRUE((f.draws.col(1).array() == 0.0).all());
  EXPECT_TRUE((f.draws.col(2).array() == 0.0).all());
}

TEST(StanCsv, WriterRejectsInconsistentInputWithoutCreatingTheFile) {
  TempDir dir;
  StanCsvDraws d = sampleDraws();
  d.mean.resize(3);
  EXPECT_THROW(writeStanCsv(dir / "fit.csv", sampleRun(), d), std::invalid_argument);
  d = sampleDraws();
  d.draws.columns[1] = "bad name";
  EXPECT_THROW(writeStanCsv(dir / "fit.csv", sampleRun(), d), std::invalid_argument);
  d = sampleDraws();
  d.draws.columns[2] = "alpha";
  EXPECT_THROW(writeStanCsv(dir / "fit.csv", sampleRun(), d), std::invalid_argument);
  d = sampleDraws();
  d.logP.resize(3);
  EXPECT_THROW(writeStanCsv(dir / "fit.csv", sampleRun(), d), std::invalid_argument);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(StanCsv, UnwritablePathIsAnOutputError) {
  TempDir dir;
  EXPECT_THROW(writeStanCsv(dir / "missing" / "fit.csv", sampleRun(), sampleDraws()), OutputError);
}

// A file shaped like CmdStan's own output: Windows line ends, NaN spellings, comments after the draws.
TEST(StanCsv, ReadsCmdStanStyleFiles) {
  std::istringstream in(
      "# model = bernoulli_model\r\n# method = variational\r\n#   variational\r\n#     algorithm = meanfield "
      "(Default)\r\n"
      "lp__,log_p__,log_g__,theta\r\n# Stepsize adaptation complete.\r\n# eta = 1\r\n"
      "0,0,0,0.25\r\n0,-6.5,-0.25,NaN\r\n0,-7,-1,+inf\r\n\r\n# \r\n#  Elapsed Time: 0.01 seconds\r\n");
  const StanCsvFile f = parseStanCsv(in, "cmdstan.csv");
  EXPECT_EQ(f.config.at("algorithm"), "meanfield");
  ASSERT_TRUE(f.mean);
  EXPECT_EQ((*f.mean)[3], 0.25);
  ASSERT_EQ(f.draws.rows(), 2);
  EXPECT_TRUE(std::isnan(f.draws(0, 3)));
  EXPECT_EQ(f.draws(1, 3), std::numeric_limits<double>::infinity());
  EXPECT_EQ(f.comments.back(), "  Elapsed Time: 0.01 seconds");
}

TEST(StanCsv, FilesOfOtherMethodsHaveNoMeanRow) {
  std::istringstream in("# method = sample\nlp__,theta\n-7,0.2\n-8,0.3\n");
  const StanCsvFile f = parseStanCsv(in, "mcmc.csv");
  EXPECT_FALSE(f.mean);
  EXPECT_EQ(f.draws.rows(), 2);
}

TEST(StanCsv, MalformedFilesGiveClearErrors) {
  EXPECT_EQ(parseError(""), "bad.csv:0: empty file");
  EXPECT_EQ(parseError("# model = m\n# method = variational\n"), "bad.csv:2: no column header (only comment lines)");
  EXPECT_EQ(parseError("lp__,a,b\n1,2,3\n4,5\n"), "bad.csv:3: expected 3 values, found 2");
  EXPECT_EQ(parseError("lp__,a,b\n1,2,3\n4,5,6,7\n"), "bad.csv:3: expected 3 values, found 4");
  EXPECT_EQ(parseError("lp__,a\n# c\n1,x2\n"), "bad.csv:3: value 2 ('x2') is not a number");
  EXPECT_EQ(parseError("lp__,a\n1,\n"), "bad.csv:2: value 2 ('') is not a number");
  EXPECT_EQ(parseError("lp__,a\n1,1e999\n"), "bad.csv:2: value 2 ('1e999') is not a number");
  EXPECT_EQ(parseError("lp__,a,a\n"), "bad.csv:1: duplicate column name 'a'");
  EXPECT_EQ(parseError("lp__,,a\n"), "bad.csv:1: empty column name in the header");
  EXPECT_EQ(parseError("# method = variational\nlp__,a\n"),
            "bad.csv:2: a variational file must have at least the mean row");
  EXPECT_EQ(parseError("lp__,a\n1,2\n"), "");
}

TEST(StanCsv, UnreadableFilesNameThePath) {
  TempDir dir;
  try {
    readStanCsv(dir / "missing.csv");
    FAIL() << "no error";
  } catch (const StanCsvError& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "missing.csv").string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(readStanCsv(dir.path()), StanCsvError);
}

}  // namespace
}  // namespace pvi::output
