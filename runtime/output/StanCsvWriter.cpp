#include "runtime/output/StanCsvWriter.hpp"

#include <stdexcept>
#include <string>

#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/Numbers.hpp"
#include "runtime/output/detail/StanCsvHeader.hpp"

namespace pvi::output {

namespace {

using detail::configLine;
using detail::sectionLine;

void checkInput(const StanCsvDraws& d) {
  const auto cols = static_cast<Eigen::Index>(d.draws.columns.size());
  if (d.draws.values.cols() != cols) {
    throw std::invalid_argument("Stan CSV: " + std::to_string(d.draws.values.cols()) + " value columns but " +
                                std::to_string(cols) + " names");
  }
  if (d.draws.numParameters > d.draws.columns.size()) {
    throw std::invalid_argument("Stan CSV: numParameters exceeds the number of columns");
  }
  if (d.mean.size() != cols) {
    throw std::invalid_argument("Stan CSV: the mean row has " + std::to_string(d.mean.size()) + " entries, expected " +
                                std::to_string(cols));
  }
  const Eigen::Index n = d.draws.values.rows();
  if (d.logP.size() != 0 && d.logP.size() != n) throw std::invalid_argument("Stan CSV: log_p__ has the wrong length");
  if (d.logG.size() != 0 && d.logG.size() != n) throw std::invalid_argument("Stan CSV: log_g__ has the wrong length");
  detail::checkColumnNames(d.draws.columns, {"lp__", "log_p__", "log_g__"}, "Stan CSV");
}

void writeHeader(std::ostream& os, const RunInfo& run, std::size_t numDraws) {
  detail::writeRunLines(os, run);
  // rstan's read_stan_csv keeps the first value of a repeated key, CmdStanPy and ArviZ the last,
  // and both of those skip a line with two '='. rstan's print fails on a file whose method is
  // "variational" (it expects the Pareto k diagnostics that only rstan's own vb() computes), so
  // this line gives rstan another method; CmdStanPy and ArviZ read "variational" on the next line.
  configLine(os, 0, "method", "pvic = rstan reads this first method line, CmdStanPy and ArviZ the next one");
  configLine(os, 0, "method", "variational");
  sectionLine(os, 1, "variational");
  // The keys CmdStanPy's from_csv requires. algorithm is the Gaussian family (Stan's meaning);
  // iter counts communication rounds; pvic has no ADVI step size, elbo or tolerance settings of
  // Stan's kind, so those are written with CmdStan's defaults and marked as such.
  configLine(os, 2, "algorithm", run.family);
  sectionLine(os, 3, run.family);
  configLine(os, 2, "iter", std::to_string(run.rounds));
  configLine(os, 2, "grad_samples", "1 (Default)");
  configLine(os, 2, "elbo_samples", "100 (Default)");
  configLine(os, 2, "eta", "1 (Default)");
  configLine(os, 2, "tol_rel_obj", "0.01 (Default)");
  configLine(os, 2, "eval_elbo", "100 (Default)");
  configLine(os, 2, "output_samples", std::to_string(numDraws));
  // sampler_t is what rstan's print names as the method that drew the samples.
  detail::writePviSection(os, run, {{"sampler_t", run.algorithm + "(" + run.family + ")"}});
  detail::writeDataRandomOutput(os, run);
  // Free text without '=', which CmdStanPy would read as a key.
  sectionLine(os, 0, "The first row after the column header is the mean of the approximation, as in");
  sectionLine(os, 0, "CmdStan's variational output; the draws follow. lp__ is always 0; log_p__ and");
  sectionLine(os, 0, "log_g__ are 0 where they were not computed.");
}

void writeRow(std::ostream& os, std::string& line, double lp, double logP, double logG, const auto& values) {
  line.clear();
  appendDouble(line, lp);
  line += ',';
  appendDouble(line, logP);
  line += ',';
  appendDouble(line, logG);
  detail::appendValues(line, values);
  line += '\n';
  os << line;
}

}  // namespace

void writeStanCsv(std::ostream& os, const RunInfo& run, const StanCsvDraws& d) {
  checkInput(d);
  const Eigen::Index n = d.draws.values.rows();
  writeHeader(os, run, static_cast<std::size_t>(n));
  os << "lp__,log_p__,log_g__";
  for (const std::string& name : d.draws.columns) os << ',' << name;
  os << '\n';
  os << "# Stepsize adaptation complete.\n# eta = 1\n";
  std::string line;
  writeRow(os, line, 0.0, 0.0, 0.0, d.mean);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double logP = d.logP.size() ? d.logP[i] : 0.0;
    const double logG = d.logG.size() ? d.logG[i] : 0.0;
    writeRow(os, line, 0.0, logP, logG, d.draws.values.row(i));
  }
}

void writeStanCsv(const std::filesystem::path& path, const RunInfo& run, const StanCsvDraws& d) {
  checkInput(d);  // before touching the file system
  writeFileAtomically(path, [&](std::ostream& os) { writeStanCsv(os, run, d); });
}

}  // namespace pvi::output
