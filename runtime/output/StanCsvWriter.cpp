#include "runtime/output/StanCsvWriter.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/Numbers.hpp"
#include "runtime/output/Version.hpp"

namespace pvi::output {

namespace {

// Keys CmdStan (and so CmdStanPy's flat config dictionary) uses; pvic's own algorithm options
// with these names are written as "pvi_<key>" so they cannot shadow them.
const std::set<std::string> kStanKeys = {"model", "method", "algorithm", "iter", "grad_samples", "elbo_samples",
                                         "eta", "tol_rel_obj", "eval_elbo", "output_samples", "id", "file",
                                         "seed", "init", "diagnostic_file", "refresh", "sig_figs"};

// Comment lines must stay one line each.
std::string oneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

void config(std::ostream& os, int depth, const std::string& key, const std::string& value) {
  os << '#' << std::string(1 + 2 * depth, ' ') << oneLine(key) << " = " << oneLine(value) << '\n';
}

void section(std::ostream& os, int depth, const std::string& name) {
  os << '#' << std::string(1 + 2 * depth, ' ') << oneLine(name) << '\n';
}

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
  std::set<std::string> seen = {"lp__", "log_p__", "log_g__"};
  for (const std::string& name : d.draws.columns) {
    const bool bad = name.empty() || name.front() == '#' ||
                     std::any_of(name.begin(), name.end(), [](char c) { return c == ',' || c == '"' || std::isspace(static_cast<unsigned char>(c)); });
    if (bad) throw std::invalid_argument("Stan CSV: invalid column name '" + name + "'");
    if (!seen.insert(name).second) throw std::invalid_argument("Stan CSV: duplicate column name '" + name + "'");
  }
}

void writeHeader(std::ostream& os, const RunInfo& run, std::size_t numDraws) {
  config(os, 0, "model", run.model);
  config(os, 0, "start_datetime", run.startDatetime.empty() ? currentUtcDatetime() : run.startDatetime);
  config(os, 0, "pvic_version", pvicVersion());
  config(os, 0, "method", "variational");
  section(os, 1, "variational");
  // The keys CmdStanPy's from_csv requires. algorithm is the Gaussian family (Stan's meaning);
  // iter counts communication rounds; pvic has no ADVI step size, elbo or tolerance settings of
  // Stan's kind, so those are written with CmdStan's defaults and marked as such.
  config(os, 2, "algorithm", run.family);
  section(os, 3, run.family);
  config(os, 2, "iter", std::to_string(run.rounds));
  config(os, 2, "grad_samples", "1 (Default)");
  config(os, 2, "elbo_samples", "100 (Default)");
  config(os, 2, "eta", "1 (Default)");
  config(os, 2, "tol_rel_obj", "0.01 (Default)");
  config(os, 2, "eval_elbo", "100 (Default)");
  config(os, 2, "output_samples", std::to_string(numDraws));
  section(os, 1, "pvi");
  config(os, 2, "pvi_algorithm", run.algorithm);
  for (const auto& [key, value] : run.options) config(os, 2, kStanKeys.count(key) ? "pvi_" + key : key, value);
  section(os, 0, "data");
  for (const std::string& file : run.dataFiles) config(os, 1, "file", file);
  section(os, 0, "random");
  config(os, 1, "seed", run.seed ? std::to_string(*run.seed) : std::string("(none)"));
  section(os, 0, "output");
  config(os, 1, "file", run.outputFile);
  // Free text without '=', which CmdStanPy would read as a key.
  section(os, 0, "The first row after the column header is the mean of the approximation, as in");
  section(os, 0, "CmdStan's variational output; the draws follow. lp__ is always 0; log_p__ and");
  section(os, 0, "log_g__ are 0 where they were not computed.");
}

void writeRow(std::ostream& os, std::string& line, double lp, double logP, double logG, const auto& values) {
  line.clear();
  appendDouble(line, lp);
  line += ',';
  appendDouble(line, logP);
  line += ',';
  appendDouble(line, logG);
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    line += ',';
    appendDouble(line, values[j]);
  }
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
