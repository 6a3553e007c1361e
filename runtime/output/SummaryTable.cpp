#include "runtime/output/SummaryTable.hpp"

#include <algorithm>
#include <cstdio>

namespace pvi::output {

namespace {

std::string number(double x, int sigFigs) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", sigFigs, x);
  return buf;
}

}  // namespace

std::string formatSummaryTable(const std::vector<ColumnSummary>& rows, int sigFigs) {
  const bool analytic = std::any_of(rows.begin(), rows.end(), [](const ColumnSummary& r) { return r.analytic.has_value(); });
  std::vector<std::string> header = {"Name", "Mean", "SD", "5%", "50%", "95%"};
  if (analytic) {
    header.push_back("Mean(q)");
    header.push_back("SD(q)");
  }
  std::vector<std::vector<std::string>> cells = {header};
  for (const ColumnSummary& r : rows) {
    std::vector<std::string> line = {r.name, number(r.mean, sigFigs), number(r.sd, sigFigs), number(r.q5, sigFigs),
                                     number(r.q50, sigFigs), number(r.q95, sigFigs)};
    if (analytic) {
      line.push_back(r.analytic ? number(r.analytic->mean, sigFigs) : "-");
      line.push_back(r.analytic ? number(r.analytic->sd, sigFigs) : "-");
    }
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(header.size(), 0);
  for (const auto& line : cells) {
    for (std::size_t j = 0; j < line.size(); ++j) width[j] = std::max(width[j], line[j].size());
  }
  std::string out;
  for (const auto& line : cells) {
    out += line[0] + std::string(width[0] - line[0].size(), ' ');
    for (std::size_t j = 1; j < line.size(); ++j) {
      out += std::string(2 + width[j] - line[j].size(), ' ') + line[j];
    }
    out += '\n';
  }
  return out;
}

}  // namespace pvi::output
