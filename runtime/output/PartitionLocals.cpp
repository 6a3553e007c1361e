#include "runtime/output/PartitionLocals.hpp"

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

std::string summaryText(const RunInfo& run, const PartitionLocals& p) {
  detail::Json locals = detail::Json::array();
  detail::Json generated = detail::Json::array();
  for (const ColumnSummary& s : summarise(p.draws, p.analytic)) (s.generated ? generated : locals).push_back(detail::columnJson(s));
  const detail::Json j{{"format", "pvic-locals-summary/1"},
                       {"pvic_version", pvicVersion()},
                       {"model", run.model},
                       {"partition", p.label},
                       {"draws", p.draws.values.rows()},
                       {"quantile_rule", "R type 7"},
                       {"locals", std::move(locals)},
                       {"generated_quantities", std::move(generated)}};
  return detail::dumpJson(j);
}

}  // namespace

std::vector<fs::path> writePartitionLocals(const fs::path& outDir, const RunInfo& run, const PartitionLocals& p) {
  checkLabel(p.label);
  if (static_cast<std::size_t>(p.draws.values.cols()) != p.draws.columns.size() ||
      p.draws.numParameters > p.draws.columns.size()) {
    throw std::invalid_argument("partition '" + p.label + "': the local draws' names and columns disagree");
  }
  const std::string summary = summaryText(run, p);  // validates `analytic` before anything is written
  const fs::path dir = outDir / p.label;
  ensureDirectory(dir);
  const fs::path draws = dir / "locals.csv";
  const fs::path json = dir / "locals_summary.json";
  writeFileAtomically(draws, [&](std::ostream& os) { writeDraws(os, run, p); });
  writeFileAtomically(json, summary);
  return {draws, json};
}

}  // namespace pvi::output
