#pragma once
// Writes MCMC draws (NUTS) as Stan CSV laid out like CmdStan 2.3x's `method = sample` output, so
// that CmdStanPy (from_csv), ArviZ (from_cmdstan) and rstan (read_stan_csv, print) read them
// (format in docs/output.md):
//   comment header   "# key = value" lines nested as CmdStan writes them (sample, adapt, hmc,
//                    nuts, metric, ...), pvic's own keys in a "pvi" section, id, data, random, output
//   column header    lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,
//                    <parameters>,<generated quantities>
//   adaptation       "# Adaptation terminated", "# Step size = ...", the inverse metric
//   one row per post-warm-up draw (treedepth__, n_leapfrog__, divergent__ as integers)
//   timing           "#  Elapsed Time: ... seconds (Warm-up)" / "(Sampling)" / "(Total)"
// One file per chain, as CmdStan writes them (writeStanSamplingCsv), or all chains in one file
// with a leading chain__ column (writeStanSamplingCsvMerged).
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "runtime/output/Results.hpp"

namespace pvi::output {

// The sampler's own columns: one entry per post-warm-up draw.
struct SamplerDiagnosticsColumns {
  Eigen::VectorXd lp;          // lp__: log density (up to a constant) at the draw
  Eigen::VectorXd acceptStat;  // accept_stat__
  Eigen::VectorXd stepSize;    // stepsize__
  Eigen::VectorXd energy;      // energy__: the Hamiltonian at the draw
  Eigen::VectorXi treeDepth;   // treedepth__ (>= 0)
  Eigen::VectorXi leapfrogs;   // n_leapfrog__ (>= 0): gradient evaluations of the transition
  Eigen::VectorXi divergent;   // divergent__ (0 or 1)

  // Sizes every column for `draws` draws (the values are left unset).
  void resize(Eigen::Index draws) {
    for (Eigen::VectorXd* v : {&lp, &acceptStat, &stepSize, &energy}) v->resize(draws);
    for (Eigen::VectorXi* v : {&treeDepth, &leapfrogs, &divergent}) v->resize(draws);
  }
};

// Step size adaptation settings besides delta; CmdStan's defaults (written as "(Default)" when
// equal to them).
struct AdaptationSettings {
  double gamma = 0.05;
  double kappa = 0.75;
  double t0 = 10;
  std::size_t initBuffer = 75;
  std::size_t termBuffer = 50;
  std::size_t window = 25;
};

// One chain's post-warm-up draws and what CmdStan writes about the run that made them.
struct ChainSamples {
  std::size_t chainId = 1;                // CmdStan's id: "# id = ..." and the chain__ column
  DrawsTable draws;                       // constrained parameters, then generated quantities
  SamplerDiagnosticsColumns sampler;      // one entry per draw
  double stepSize = 1.0;                  // the adapted step size ("# Step size = ...")
  std::string metric = "diag_e";          // "diag_e" or "dense_e"
  Eigen::VectorXd inverseMetricDiagonal;  // when metric is diag_e: one entry per unconstrained parameter
  Eigen::MatrixXd inverseMetricDense;     // when metric is dense_e: square, one row per unconstrained parameter
  std::size_t numWarmup = 1000;
  std::size_t maxDepth = 10;
  double adaptDelta = 0.8;
  AdaptationSettings adapt;
  double initialStepSize = 1.0;  // "stepsize" in the header (CmdStan's option), before adaptation
  double stepSizeJitter = 0.0;
  double warmupSeconds = 0.0;
  double samplingSeconds = 0.0;
};

// CmdStan's one file per chain. The file's num_samples is the number of draws; save_warmup = 0 and
// thin = 1 (only post-warm-up draws are written).
// Throws std::invalid_argument (message "Stan sampling CSV (chain <id>): <problem>") when sizes
// disagree, a column name is not a valid Stan CSV name (empty, containing ',', '"', whitespace or
// '#') or ends in "__" (reserved for the sampler's columns), a name repeats, divergent__ is not 0 or
// 1, the metric is not diag_e or dense_e or its matrix is empty or not square, or a step size, delta
// or time is out of range; OutputError when the file cannot be written (nothing is written then).
void writeStanSamplingCsv(const std::filesystem::path& path, const RunInfo& run, const ChainSamples& chain);
void writeStanSamplingCsv(std::ostream& os, const RunInfo& run, const ChainSamples& chain);

// All chains in one file: a chain__ column (the chain's id) first, then the per-chain file's
// columns; each chain's adaptation block and draws in turn; one timing block with the sums over the
// chains. The chains must have the same columns, number of draws and settings (one header describes
// them; num_samples is per chain) and distinct ids. For tables (pandas, R's read.csv, posterior's
// as_draws_df with .chain = chain__); CmdStanPy, ArviZ and rstan read the per-chain files.
// Throws std::invalid_argument as above, and for no chains, differing chains or repeated ids.
void writeStanSamplingCsvMerged(const std::filesystem::path& path, const RunInfo& run,
                                const std::vector<ChainSamples>& chains);
void writeStanSamplingCsvMerged(std::ostream& os, const RunInfo& run, const std::vector<ChainSamples>& chains);

// The file name CmdStan gives chain `chainId` of output `base`: "fit.csv", 2 -> "fit_2.csv".
std::filesystem::path chainCsvPath(const std::filesystem::path& base, std::size_t chainId);

namespace detail {
// The per-chain file with `extraPviKeys` written in the pvi section (used by the partition writer).
void writeStanSamplingChain(std::ostream& os, const RunInfo& run, const ChainSamples& chain,
                            const std::vector<std::pair<std::string, std::string>>& extraPviKeys);
void checkChainSamples(const ChainSamples& chain);
}  // namespace detail

}  // namespace pvi::output
