// Writes Stan CSV files of every layout pvic's writers produce, with plausible (synthetic) draws,
// for checking them with other tools on a development machine (tests/compat/check_stan_csv.R,
// docs/output.md):
//   <dir>/sample/fit_<1..4>.csv         writeStanSamplingCsv, diag_e, 1000 draws per chain
//   <dir>/dense/fit_<1..2>.csv          writeStanSamplingCsv, dense_e
//   <dir>/merged.csv                    writeStanSamplingCsvMerged of the four diag_e chains
//   <dir>/locals/school_1/locals_<1..4>.csv, locals_summary.json   writePartitionSamplingLocals
//   <dir>/variational.csv               writeStanCsv (the variational layout)
// Usage: pvi_stan_csv_fixtures <dir>   (the directory is created)
#include <cmath>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "runtime/output/Output.hpp"

namespace {

using namespace pvi::output;

// Eight schools shaped draws (i.i.d. around the reference posterior's means and sds), a 2 x 2
// matrix generated quantity (column-major names, as Stan writes them), plausible sampler columns.
ChainSamples chain(std::size_t id, int draws, bool dense, std::mt19937_64& rng) {
  std::normal_distribution<double> z;
  std::uniform_real_distribution<double> u;
  ChainSamples c;
  c.chainId = id;
  c.draws.columns = {"mu", "tau"};
  for (int j = 1; j <= 8; ++j) c.draws.columns.push_back("theta." + std::to_string(j));
  c.draws.numParameters = c.draws.columns.size();
  for (const char* name : {"L.1.1", "L.2.1", "L.1.2", "L.2.2", "theta_mean"}) c.draws.columns.emplace_back(name);
  c.draws.values.resize(draws, static_cast<Eigen::Index>(c.draws.columns.size()));
  SamplerDiagnosticsColumns& s = c.sampler;
  s.resize(draws);
  for (int i = 0; i < draws; ++i) {
    const double mu = 4.4 + 3.3 * z(rng);
    const double tau = std::exp(0.8 + 0.9 * z(rng));
    double sum = 0.0;
    c.draws.values(i, 0) = mu;
    c.draws.values(i, 1) = tau;
    for (int j = 0; j < 8; ++j) {
      c.draws.values(i, 2 + j) = mu + tau * z(rng);
      sum += c.draws.values(i, 2 + j);
    }
    c.draws.values(i, 10) = 1.0;
    c.draws.values(i, 11) = z(rng);
    c.draws.values(i, 12) = 0.0;
    c.draws.values(i, 13) = 1.0 + u(rng);
    c.draws.values(i, 14) = sum / 8.0;
    s.lp[i] = -40.0 + 3.0 * z(rng);
    s.acceptStat[i] = u(rng);
    s.stepSize[i] = 0.3 + 0.01 * static_cast<double>(id);
    s.energy[i] = -s.lp[i] + 5.0 + 2.0 * u(rng);
    s.treeDepth[i] = 3 + (u(rng) < 0.3 ? 1 : 0);
    s.leapfrogs[i] = s.treeDepth[i] == 3 ? 7 : 15;
    s.divergent[i] = u(rng) < 0.002 ? 1 : 0;
  }
  c.stepSize = s.stepSize[0];
  if (dense) {
    c.metric = "dense_e";
    Eigen::MatrixXd a = Eigen::MatrixXd::Identity(10, 10);
    a(0, 1) = a(1, 0) = 0.3;
    c.inverseMetricDense = a;
  } else {
    c.inverseMetricDiagonal = Eigen::VectorXd::LinSpaced(10, 0.5, 2.0);
  }
  c.warmupSeconds = 0.05 * static_cast<double>(id);
  c.samplingSeconds = 0.1 * static_cast<double>(id);
  return c;
}

RunInfo run(const std::string& output) {
  RunInfo r;
  r.model = "eight_schools";
  r.dataFiles = {"eight_schools.json"};
  r.algorithm = "nuts";
  r.options = {{"chains", "4"}, {"fixture", "synthetic draws from tests/compat/write_stan_csv_fixtures.cpp"}};
  r.seed = 7;
  r.outputFile = output;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <dir>\n", argv[0]);
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::mt19937_64 rng(20250101);
    ensureDirectory(dir / "sample");
    ensureDirectory(dir / "dense");
    std::vector<ChainSamples> chains;
    for (std::size_t id = 1; id <= 4; ++id) {
      chains.push_back(chain(id, 1000, false, rng));
      const std::filesystem::path path = chainCsvPath(dir / "sample" / "fit.csv", id);
      writeStanSamplingCsv(path, run(path.string()), chains.back());
    }
    for (std::size_t id = 1; id <= 2; ++id) {
      const std::filesystem::path path = chainCsvPath(dir / "dense" / "fit.csv", id);
      writeStanSamplingCsv(path, run(path.string()), chain(id, 200, true, rng));
    }
    writeStanSamplingCsvMerged(dir / "merged.csv", run((dir / "merged.csv").string()), chains);

    PartitionSamplingLocals locals;
    locals.label = "school_1";
    for (const ChainSamples& c : chains) {
      ChainSamples l = c;
      l.draws.columns = {"theta_raw", "y_rep"};
      l.draws.numParameters = 1;
      l.draws.values = c.draws.values.middleCols(2, 2).eval();
      l.inverseMetricDiagonal = Eigen::VectorXd::Constant(1, 0.7);
      locals.chains.push_back(l);
    }
    writePartitionSamplingLocals(dir / "locals", run(""), locals);

    StanCsvDraws vb;
    vb.draws = chains[0].draws;
    vb.mean = vb.draws.values.colwise().mean();
    vb.logP = chains[0].sampler.lp;
    RunInfo vbRun = run((dir / "variational.csv").string());
    vbRun.algorithm = "pvi";
    vbRun.family = "meanfield";
    vbRun.rounds = 20;
    writeStanCsv(dir / "variational.csv", vbRun, vb);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
