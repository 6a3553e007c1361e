#include "runtime/output/PartitionLocals.hpp"

#include <optional>
#include <stdexcept>

#include "runtime/data/PartitionLabel.hpp"
#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/Numbers.hpp"
#include "runtime/output/Version.hpp"
#include "runtime/output/detail/JsonFields.hpp"

namespace pvi::output {

namespace fs = std::filesystem;

namespace {

// The data loader refuses such labels when it reads them; this is the check for other callers.
void checkLabel(const std::string& label) {
  const std::string problem = partitionLabelProblem(label);
  if (!problem.empty()) {
    const std::string shown = label.size() > 80 ? label.substr(0, 60) + "..." : label;
    throw std::invalid_argument("partition label '" + shown + "' is not usable as a directory name: " + problem);
  }
}

void writeDraws(std::ostream& os, const RunInfo& run, const PartitionLocals& p) {
  os << "# model = " << run.model << '\n';
  os << "# partition = " << p.label << '\n';
  os << "# pvic_version = " << pvicVersion() << '\n';
  os << "# local_latents = " << p.draws.numParameters << '\n';
  os << "# generated_quantities = " << p.draws.columns.size() - p.draws.numParameters << '\n';
  for (std::size_t j = 0; j < p.draws.columns.size(); ++j) os << (j ? "," : "") << p.draws.columns[j];
  os << '\n';
  std::string line;
  for (Eigen::Index i = 0; i < p.draws.values.rows(); ++i) {
    line.clear();
    for (Eigen::Index j = 0; j < p.draws.values.cols(); ++j) {
      if (j) line += ',';
      appendDouble(line, p.draws.values(i, j));
    }
    line += '\n';
    os << line;
  }
}

// The summary of one partition's draws (all chains' stacked, for a sampler).
std::string summaryText(const RunInfo& run, const std::string& label, const DrawsTable& draws,
                        const std::vector<std::optional<AnalyticMoments>>& analytic,
                        std::optional<std::size_t> chains) {
  detail::Json locals = detail::Json::array();
  detail::Json generated = detail::Json::array();
  for (const ColumnSummary& s : summarise(draws, analytic))
    (s.generated ? generated : locals).push_back(detail::columnJson(s));
  detail::Json j{
      {"format", "pvic-locals-summary/1"}, {"pvic_version", pvicVersion()}, {"model", run.model}, {"partition", label}};
  if (chains) j["chains"] = *chains;
  j["draws"] = draws.values.rows();
  j["quantile_rule"] = "R type 7";
  j["locals"] = std::move(locals);
  j["generated_quantities"] = std::move(generated);
  return detail::dumpJson(j);
}

}  // namespace

std::vector<fs::path> writePartitionLocals(const fs::path& outDir, const RunInfo& run, const PartitionLocals& p) {
  checkLabel(p.label);
  if (static_cast<std::size_t>(p.draws.values.cols()) != p.draws.columns.size() ||
      p.draws.numParameters > p.draws.columns.size()) {
    throw std::invalid_argument("partition '" + p.label + "': the local draws' names and columns disagree");
  }
  const std::string summary = summaryText(run, p.label, p.draws, p.analytic, std::nullopt);  // validates `analytic`
  const fs::path dir = outDir / p.label;
  ensureDirectory(dir);
  const fs::path draws = dir / "locals.csv";
  const fs::path json = dir / "locals_summary.json";
  writeFileAtomically(draws, [&](std::ostream& os) { writeDraws(os, run, p); });
  writeFileAtomically(json, summary);
  return {draws, json};
}

std::vector<fs::path> writePartitionSamplingLocals(const fs::path& outDir, const RunInfo& run,
                                                   const PartitionSamplingLocals& p) {
  checkLabel(p.label);
  if (p.chains.empty()) throw std::invalid_argument("partition '" + p.label + "': no chains");
  DrawsTable all;  // every chain's draws, for the summary
  all.columns = p.chains.front().draws.columns;
  all.numParameters = p.chains.front().draws.numParameters;
  Eigen::Index rows = 0;
  for (const ChainSamples& c : p.chains) {
    if (c.draws.columns != all.columns || c.draws.numParameters != all.numParameters) {
      throw std::invalid_argument("partition '" + p.label + "': chain " + std::to_string(c.chainId) +
                                  " has other columns than chain " + std::to_string(p.chains.front().chainId));
    }
    detail::checkChainSamples(c);
    rows += c.draws.values.rows();
  }
  all.values.resize(rows, static_cast<Eigen::Index>(all.columns.size()));
  rows = 0;
  for (const ChainSamples& c : p.chains) {
    all.values.middleRows(rows, c.draws.values.rows()) = c.draws.values;
    rows += c.draws.values.rows();
  }
  const std::string summary = summaryText(run, p.label, all, p.analytic, p.chains.size());  // validates `analytic`
  const fs::path dir = outDir / p.label;
  ensureDirectory(dir);
  std::vector<fs::path> written;
  for (const ChainSamples& c : p.chains) {
    const fs::path path = chainCsvPath(dir / "locals.csv", c.chainId);
    RunInfo chainRun = run;
    chainRun.outputFile = path.string();
    const std::vector<std::pair<std::string, std::string>> keys = {
        {"partition", p.label},
        {"local_latents", std::to_string(c.draws.numParameters)},
        {"generated_quantities", std::to_string(c.draws.columns.size() - c.draws.numParameters)}};
    writeFileAtomically(path, [&](std::ostream& os) { detail::writeStanSamplingChain(os, chainRun, c, keys); });
    written.push_back(path);
  }
  const fs::path json = dir / "locals_summary.json";
  writeFileAtomically(json, summary);
  written.push_back(json);
  return written;
}

}  // namespace pvi::output
