#include "runtime/output/StanSamplingCsv.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/Numbers.hpp"
#include "runtime/output/detail/StanCsvHeader.hpp"

namespace pvi::output {

namespace {

using detail::configLine;
using detail::sectionLine;

// The sampler's columns, in CmdStan's order.
const std::vector<std::string> kSamplerColumns = {"lp__",         "accept_stat__", "stepsize__", "treedepth__",
                                                  "n_leapfrog__", "divergent__",   "energy__"};
constexpr const char* kChainColumn = "chain__";

std::string number(double x) {
  std::string s;
  appendDouble(s, x);
  return s;
}

// CmdStan marks the values it took by default; so do we, when the value is CmdStan's default.
std::string valueOf(const std::string& text, bool isDefault) { return isDefault ? text + " (Default)" : text; }
std::string valueOf(double x, double cmdStanDefault) { return valueOf(number(x), x == cmdStanDefault); }
std::string valueOf(std::size_t n, std::size_t cmdStanDefault) {
  return valueOf(std::to_string(n), n == cmdStanDefault);
}

// Seconds as CmdStan's timing block writes them; fixed notation (rstan keeps only the digits and
// dots of these lines, so an exponent would be misread).
std::string seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

[[noreturn]] void fail(const ChainSamples& c, const std::string& problem) {
  throw std::invalid_argument("Stan sampling CSV (chain " + std::to_string(c.chainId) + "): " + problem);
}

void checkLength(const ChainSamples& c, const char* column, Eigen::Index size) {
  const Eigen::Index n = c.draws.values.rows();
  if (size != n) {
    fail(c, std::string(column) + " has " + std::to_string(size) + " entries, expected " + std::to_string(n) +
                " (one per draw)");
  }
}

void checkNames(const ChainSamples& c, bool merged) {
  std::set<std::string> taken(kSamplerColumns.begin(), kSamplerColumns.end());
  if (merged) taken.insert(kChainColumn);
  for (const std::string& name : c.draws.columns) {
    if (name.size() >= 2 && name.ends_with("__")) {
      fail(c, "column name '" + name + "' ends in \"__\", which marks the sampler's columns");
    }
  }
  try {
    detail::checkColumnNames(c.draws.columns, taken, "column names");
  } catch (const std::invalid_argument& e) {
    fail(c, e.what());
  }
}

void checkFinite(const ChainSamples& c, const char* what, double x, double low, bool lowIncluded) {
  if (!std::isfinite(x) || x < low || (!lowIncluded && x == low)) {
    fail(c, std::string(what) + " is " + number(x) + ", expected a finite number " + (lowIncluded ? ">= " : "> ") +
                number(low));
  }
}

void writeHeader(std::ostream& os, const RunInfo& run, const ChainSamples& c, std::size_t numDraws,
                 const std::vector<std::pair<std::string, std::string>>& extraPviKeys) {
  const AdaptationSettings defaults;
  detail::writeRunLines(os, run);
  configLine(os, 0, "method", "sample (Default)");
  sectionLine(os, 1, "sample");
  configLine(os, 2, "num_samples", valueOf(numDraws, 1000));
  configLine(os, 2, "num_warmup", valueOf(c.numWarmup, 1000));
  configLine(os, 2, "save_warmup", "0 (Default)");
  configLine(os, 2, "thin", "1 (Default)");
  sectionLine(os, 2, "adapt");
  configLine(os, 3, "engaged", c.numWarmup > 0 ? "1 (Default)" : "0");
  configLine(os, 3, "gamma", valueOf(c.adapt.gamma, defaults.gamma));
  configLine(os, 3, "delta", valueOf(c.adaptDelta, 0.8));
  configLine(os, 3, "kappa", valueOf(c.adapt.kappa, defaults.kappa));
  configLine(os, 3, "t0", valueOf(c.adapt.t0, defaults.t0));
  configLine(os, 3, "init_buffer", valueOf(c.adapt.initBuffer, defaults.initBuffer));
  configLine(os, 3, "term_buffer", valueOf(c.adapt.termBuffer, defaults.termBuffer));
  configLine(os, 3, "window", valueOf(c.adapt.window, defaults.window));
  configLine(os, 2, "algorithm", "hmc (Default)");
  sectionLine(os, 3, "hmc");
  configLine(os, 4, "engine", "nuts (Default)");
  sectionLine(os, 5, "nuts");
  configLine(os, 6, "max_depth", valueOf(c.maxDepth, 10));
  configLine(os, 4, "metric", valueOf(c.metric, c.metric == "diag_e"));
  configLine(os, 4, "stepsize", valueOf(c.initialStepSize, 1.0));
  configLine(os, 4, "stepsize_jitter", valueOf(c.stepSizeJitter, 0.0));
  detail::writePviSection(os, run, extraPviKeys);
  configLine(os, 0, "id", std::to_string(c.chainId));
  detail::writeDataRandomOutput(os, run);
}

void writeColumnHeader(std::ostream& os, const ChainSamples& c, bool merged) {
  if (merged) os << kChainColumn << ',';
  for (const std::string& name : kSamplerColumns) os << name << (&name == &kSamplerColumns.back() ? "" : ",");
  for (const std::string& name : c.draws.columns) os << ',' << name;
  os << '\n';
}

// "# a, b, c": CmdStan's separator in the inverse metric lines.
void writeMetricRow(std::ostream& os, const auto& row) {
  std::string line = "# ";
  for (Eigen::Index j = 0; j < row.size(); ++j) {
    if (j) line += ", ";
    appendDouble(line, row[j]);
  }
  os << line << '\n';
}

void writeAdaptation(std::ostream& os, const ChainSamples& c) {
  os << "# Adaptation terminated\n# Step size = " << number(c.stepSize) << '\n';
  if (c.metric == "diag_e") {
    os << "# Diagonal elements of inverse mass matrix:\n";
    writeMetricRow(os, c.inverseMetricDiagonal);
  } else {
    os << "# Elements of inverse mass matrix:\n";
    for (Eigen::Index i = 0; i < c.inverseMetricDense.rows(); ++i) writeMetricRow(os, c.inverseMetricDense.row(i));
  }
}

void writeDraws(std::ostream& os, const ChainSamples& c, bool merged) {
  const SamplerDiagnosticsColumns& s = c.sampler;
  std::string line;
  for (Eigen::Index i = 0; i < c.draws.values.rows(); ++i) {
    line.clear();
    if (merged) line += std::to_string(c.chainId) + ',';
    appendDouble(line, s.lp[i]);
    line += ',';
    appendDouble(line, s.acceptStat[i]);
    line += ',';
    appendDouble(line, s.stepSize[i]);
    line += ',' + std::to_string(s.treeDepth[i]) + ',' + std::to_string(s.leapfrogs[i]) + ',' +
            std::to_string(s.divergent[i]) + ',';
    appendDouble(line, s.energy[i]);
    detail::appendValues(line, c.draws.values.row(i));
    line += '\n';
    os << line;
  }
}

// CmdStan's timing block, blank comment lines around it.
void writeTiming(std::ostream& os, double warmup, double sampling) {
  os << "# \n#  Elapsed Time: " << seconds(warmup) << " seconds (Warm-up)\n";
  os << "#                " << seconds(sampling) << " seconds (Sampling)\n";
  os << "#                " << seconds(warmup + sampling) << " seconds (Total)\n# \n";
}

// Settings one header describes: every chain of a merged file must share them.
bool sameSettings(const ChainSamples& a, const ChainSamples& b) {
  return a.draws.columns == b.draws.columns && a.draws.numParameters == b.draws.numParameters &&
         a.draws.values.rows() == b.draws.values.rows() && a.numWarmup == b.numWarmup && a.maxDepth == b.maxDepth &&
         a.adaptDelta == b.adaptDelta && a.metric == b.metric && a.initialStepSize == b.initialStepSize &&
         a.stepSizeJitter == b.stepSizeJitter && a.adapt.gamma == b.adapt.gamma && a.adapt.kappa == b.adapt.kappa &&
         a.adapt.t0 == b.adapt.t0 && a.adapt.initBuffer == b.adapt.initBuffer &&
         a.adapt.termBuffer == b.adapt.termBuffer && a.adapt.window == b.adapt.window;
}

void checkChain(const ChainSamples& c, bool merged) {
  const DrawsTable& d = c.draws;
  if (static_cast<std::size_t>(d.values.cols()) != d.columns.size()) {
    fail(c, std::to_string(d.values.cols()) + " value columns but " + std::to_string(d.columns.size()) + " names");
  }
  if (d.numParameters > d.columns.size()) fail(c, "numParameters exceeds the number of columns");
  checkNames(c, merged);
  const SamplerDiagnosticsColumns& s = c.sampler;
  checkLength(c, "lp__", s.lp.size());
  checkLength(c, "accept_stat__", s.acceptStat.size());
  checkLength(c, "stepsize__", s.stepSize.size());
  checkLength(c, "treedepth__", s.treeDepth.size());
  checkLength(c, "n_leapfrog__", s.leapfrogs.size());
  checkLength(c, "divergent__", s.divergent.size());
  checkLength(c, "energy__", s.energy.size());
  for (Eigen::Index i = 0; i < s.divergent.size(); ++i) {
    if (s.divergent[i] != 0 && s.divergent[i] != 1) {
      fail(c, "divergent__ of draw " + std::to_string(i + 1) + " is " + std::to_string(s.divergent[i]) +
                  ", expected 0 or 1");
    }
    if (s.treeDepth[i] < 0 || s.leapfrogs[i] < 0) {
      fail(c, "treedepth__ and n_leapfrog__ must not be negative (draw " + std::to_string(i + 1) + ")");
    }
  }
  if (c.metric == "diag_e") {
    if (c.inverseMetricDiagonal.size() == 0) fail(c, "metric diag_e needs inverseMetricDiagonal (it is empty)");
    if (c.inverseMetricDense.size() != 0) fail(c, "metric diag_e takes inverseMetricDiagonal, not inverseMetricDense");
  } else if (c.metric == "dense_e") {
    if (c.inverseMetricDense.size() == 0) fail(c, "metric dense_e needs inverseMetricDense (it is empty)");
    if (c.inverseMetricDense.rows() != c.inverseMetricDense.cols()) {
      fail(c, "inverseMetricDense is " + std::to_string(c.inverseMetricDense.rows()) + " x " +
                  std::to_string(c.inverseMetricDense.cols()) + ", expected a square matrix");
    }
    if (c.inverseMetricDiagonal.size() != 0)
      fail(c, "metric dense_e takes inverseMetricDense, not inverseMetricDiagonal");
  } else {
    fail(c, "metric '" + c.metric + "' is not diag_e or dense_e");
  }
  checkFinite(c, "the step size", c.stepSize, 0.0, false);
  checkFinite(c, "the initial step size", c.initialStepSize, 0.0, false);
  checkFinite(c, "the step size jitter", c.stepSizeJitter, 0.0, true);
  if (!(c.adaptDelta > 0.0 && c.adaptDelta < 1.0))
    fail(c, "adaptDelta is " + number(c.adaptDelta) + ", expected 0 < delta < 1");
  if (c.maxDepth == 0) fail(c, "maxDepth is 0, expected at least 1");
  checkFinite(c, "the warm-up time", c.warmupSeconds, 0.0, true);
  checkFinite(c, "the sampling time", c.samplingSeconds, 0.0, true);
}

void checkMerged(const std::vector<ChainSamples>& chains) {
  if (chains.empty()) throw std::invalid_argument("Stan sampling CSV: no chains to write");
  std::set<std::size_t> ids;
  for (const ChainSamples& c : chains) {
    checkChain(c, true);
    if (!ids.insert(c.chainId).second) fail(c, "the id is used by another chain");
    if (!sameSettings(c, chains.front())) {
      fail(c, "the columns, the number of draws or the sampler settings differ from chain " +
                  std::to_string(chains.front().chainId) + "'s (one header describes all chains)");
    }
  }
}

}  // namespace

namespace detail {

void checkChainSamples(const ChainSamples& chain) { checkChain(chain, false); }

void writeStanSamplingChain(std::ostream& os, const RunInfo& run, const ChainSamples& c,
                            const std::vector<std::pair<std::string, std::string>>& extraPviKeys) {
  checkChain(c, false);
  writeHeader(os, run, c, static_cast<std::size_t>(c.draws.values.rows()), extraPviKeys);
  writeColumnHeader(os, c, false);
  writeAdaptation(os, c);
  writeDraws(os, c, false);
  writeTiming(os, c.warmupSeconds, c.samplingSeconds);
}

}  // namespace detail

void writeStanSamplingCsv(std::ostream& os, const RunInfo& run, const ChainSamples& chain) {
  detail::writeStanSamplingChain(os, run, chain, {});
}

void writeStanSamplingCsv(const std::filesystem::path& path, const RunInfo& run, const ChainSamples& chain) {
  checkChain(chain, false);  // before touching the file system
  writeFileAtomically(path, [&](std::ostream& os) { writeStanSamplingCsv(os, run, chain); });
}

void writeStanSamplingCsvMerged(std::ostream& os, const RunInfo& run, const std::vector<ChainSamples>& chains) {
  checkMerged(chains);
  const ChainSamples& first = chains.front();
  std::string ids;
  for (const ChainSamples& c : chains) ids += (ids.empty() ? "" : ",") + std::to_string(c.chainId);
  writeHeader(os, run, first, static_cast<std::size_t>(first.draws.values.rows()),
              {{"chains", std::to_string(chains.size())}, {"merged_chain_ids", ids}});
  writeColumnHeader(os, first, true);
  double warmup = 0.0;
  double sampling = 0.0;
  for (const ChainSamples& c : chains) {
    // No '=' and none of the timing block's words: no reader takes this line for a setting or a time.
    os << "# Chain " << c.chainId << ": warm-up " << seconds(c.warmupSeconds) << " s, sampling "
       << seconds(c.samplingSeconds) << " s\n";
    writeAdaptation(os, c);
    writeDraws(os, c, true);
    warmup += c.warmupSeconds;
    sampling += c.samplingSeconds;
  }
  writeTiming(os, warmup, sampling);
}

void writeStanSamplingCsvMerged(const std::filesystem::path& path, const RunInfo& run,
                                const std::vector<ChainSamples>& chains) {
  checkMerged(chains);  // before touching the file system
  writeFileAtomically(path, [&](std::ostream& os) { writeStanSamplingCsvMerged(os, run, chains); });
}

std::filesystem::path chainCsvPath(const std::filesystem::path& base, std::size_t chainId) {
  std::filesystem::path p = base;
  p.replace_filename(base.stem().string() + "_" + std::to_string(chainId) + base.extension().string());
  return p;
}

}  // namespace pvi::output
