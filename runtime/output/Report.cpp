#include "runtime/output/Report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/Svg.hpp"

namespace pvi::output {

namespace fs = std::filesystem;

std::vector<MarginalInput> marginalsFromDraws(const DrawsTable& draws,
                                              const std::vector<std::optional<AnalyticMoments>>& analytic) {
  if (!analytic.empty() && analytic.size() != draws.columns.size()) {
    throw std::invalid_argument("marginalsFromDraws: analytic moments must be given for every column or none");
  }
  std::vector<MarginalInput> out;
  for (std::size_t j = 0; j < draws.numParameters && j < draws.columns.size(); ++j) {
    const auto column = draws.values.col(static_cast<Eigen::Index>(j));
    out.push_back({draws.columns[j], std::vector<double>(column.begin(), column.end()),
                   analytic.empty() ? std::nullopt : analytic[j]});
  }
  return out;
}

namespace {

// A file name from a column or metric name: keeps [A-Za-z0-9._-], replaces the rest, and
// never repeats a name already used.
std::string fileName(const std::string& prefix, const std::string& name, std::set<std::string>& used) {
  std::string safe;
  for (char c : name) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') ? c : '_';
  std::string candidate = prefix + safe + ".svg";
  for (int k = 2; !used.insert(candidate).second; ++k) candidate = prefix + safe + "-" + std::to_string(k) + ".svg";
  return candidate;
}

struct Chart {
  std::string file;
  std::string caption;
};

std::string indexHtml(const ReportInput& in, const std::vector<Chart>& traceCharts,
                      const std::vector<Chart>& marginalCharts, std::size_t omitted, bool elboMissing) {
  const RunInfo& r = in.run;
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<title>pvic report: " + xmlEscape(r.model) + "</title>\n";
  h += "<style>body{font-family:sans-serif;margin:2em;max-width:1400px}figure{display:inline-block;margin:0.5em}"
       "figcaption{text-align:center}td{padding:0 1em 0 0}</style>\n</head>\n<body>\n";
  h += "<h1>pvic report: " + xmlEscape(r.model) + "</h1>\n<table>\n";
  const auto row = [&](const std::string& k, const std::string& v) {
    h += "<tr><td>" + xmlEscape(k) + "</td><td>" + xmlEscape(v) + "</td></tr>\n";
  };
  row("algorithm", r.algorithm);
  row("family", r.family);
  row("rounds", std::to_string(r.rounds));
  std::string data;
  for (const std::string& f : r.dataFiles) data += (data.empty() ? "" : ", ") + f;
  row("data", data);
  if (r.seed) row("seed", std::to_string(*r.seed));
  for (const auto& [k, v] : r.options) row(k, v);
  h += "</table>\n";
  const auto section = [&](const std::string& title, const std::vector<Chart>& charts) {
    h += "<h2>" + xmlEscape(title) + "</h2>\n";
    for (const Chart& c : charts) {
      h += "<figure><a href=\"" + xmlEscape(c.file) + "\"><img src=\"" + xmlEscape(c.file) +
           "\" width=\"640\" height=\"400\" alt=\"" + xmlEscape(c.caption) + "\"></a><figcaption>" +
           xmlEscape(c.caption) + "</figcaption></figure>\n";
    }
  };
  section("Progress against communication rounds", traceCharts);
  if (elboMissing) h += "<p>The ELBO was not evaluated during this run.</p>\n";
  section("Posterior marginals", marginalCharts);
  if (omitted > 0) {
    h += "<p>" + std::to_string(omitted) + " more parameters are not plotted (the report shows the first " +
         std::to_string(in.maxMarginals) + ").</p>\n";
  }
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace

std::vector<fs::path> writeReport(const fs::path& dir, const ReportInput& in) {
  ensureDirectory(dir);
  std::vector<fs::path> written;
  std::set<std::string> used = {"index.html"};
  const auto write = [&](const std::string& name, const std::string& content) {
    writeFileAtomically(dir / name, content);
    written.push_back(dir / name);
  };

  std::vector<double> rounds;
  std::vector<double> elbo;
  std::set<std::string> metricNames;
  for (const TraceRow& t : in.trace) {
    rounds.push_back(static_cast<double>(t.round));
    elbo.push_back(t.elbo);
    for (const auto& [name, value] : t.metrics) metricNames.insert(name);
  }
  std::vector<Chart> traceCharts;
  const bool anyElbo = std::any_of(elbo.begin(), elbo.end(), [](double v) { return std::isfinite(v); });
  if (anyElbo) {
    const std::string file = fileName("", "elbo", used);
    write(file, renderLineChart({"ELBO against communication rounds", "communication round", "ELBO", rounds, elbo}));
    traceCharts.push_back({file, "ELBO"});
  }
  for (const std::string& name : metricNames) {
    std::vector<double> y;
    for (const TraceRow& t : in.trace) {
      const auto it = t.metrics.find(name);
      y.push_back(it == t.metrics.end() ? kNaN : it->second);
    }
    const std::string file = fileName("metric-", name, used);
    write(file, renderLineChart({name + " against communication rounds", "communication round", name, rounds, y}));
    traceCharts.push_back({file, name});
  }

  std::vector<Chart> marginalCharts;
  const std::size_t shown = std::min(in.marginals.size(), in.maxMarginals);
  for (std::size_t i = 0; i < shown; ++i) {
    const MarginalInput& m = in.marginals[i];
    MarginalChart chart{"Posterior marginal of " + m.name, m.name, m.draws, 0, std::nullopt, std::nullopt};
    if (m.gaussian) {
      chart.gaussianMean = m.gaussian->mean;
      chart.gaussianSd = m.gaussian->sd;
    }
    const std::string file = fileName("marginal-", m.name, used);
    write(file, renderMarginalChart(chart));
    marginalCharts.push_back({file, m.name});
  }
  write("index.html", indexHtml(in, traceCharts, marginalCharts, in.marginals.size() - shown, !in.trace.empty() && !anyElbo));
  return written;
}

}  // namespace pvi::output
