#pragma once
// Writes draws from the fitted approximation as a Stan CSV file laid out like CmdStan's
// `method = variational` output, so CmdStanPy (from_csv), ArviZ, rstan (read_stan_csv and print)
// and stansummary read it (format in docs/output.md):
//   comment header   "# key = value" lines, nested by indentation as CmdStan writes them; a first
//                    method line with two '=' that only rstan reads (its print fails on method
//                    "variational"), then "# method = variational" for CmdStanPy and ArviZ
//   column header    lp__,log_p__,log_g__,<parameters>,<generated quantities>
//   "# Stepsize adaptation complete." / "# eta = 1"  (CmdStanPy requires these two lines)
//   the mean row     constrain(mean of q), lp__ = log_p__ = log_g__ = 0
//   one row per draw
// Numbers are written with full round-trip precision.
#include <Eigen/Core>
#include <filesystem>
#include <ostream>

#include "runtime/output/Results.hpp"

namespace pvi::output {

struct StanCsvDraws {
  DrawsTable draws;      // constrained draws: parameters then generated quantities
  Eigen::VectorXd mean;  // the mean of q mapped to constrained space (and generated quantities there)
  Eigen::VectorXd logP;  // log_p__ of each draw: the model's log density; empty: not computed (0)
  Eigen::VectorXd logG;  // log_g__ of each draw: log q; empty: not computed (0)
};

// Throws std::invalid_argument when sizes disagree or a column name is not a valid Stan CSV name
// (empty, or containing ',', '"', whitespace or '#'); OutputError when the file cannot be written.
void writeStanCsv(const std::filesystem::path& path, const RunInfo& run, const StanCsvDraws& draws);
void writeStanCsv(std::ostream& os, const RunInfo& run, const StanCsvDraws& draws);

}  // namespace pvi::output
