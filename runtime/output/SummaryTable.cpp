#include "runtime/output/SummaryTable.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pvi::output {

namespace {

std::string number(double x, int sigFigs) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", sigFigs, x);
  return buf;
}

// ESS as stansummary prints it: no decimals.
std::string wholeNumber(double x) {
  if (!std::isfinite(x)) return number(x, 4);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", x);
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
  const bool mcmc = std::any_of(rows.begin(), rows.end(), [](const ColumnSummary& r) {
    return std::isfinite(r.rhat) || std::isfinite(r.essBulk);
  });
  if (mcmc)
    for (const char* h : {"MCSE", "ESS_bulk", "ESS_tail", "R_hat"}) header.push_back(h);
  std::vector<std::vector<std::string>> cells = {header};
  for (const ColumnSummary& r : rows) {
    std::vector<std::string> line = {r.name, number(r.mean, sigFigs), number(r.sd, sigFigs), number(r.q5, sigFigs),
                                     number(r.q50, sigFigs), number(r.q95, sigFigs)};
    if (analytic) {
      line.push_back(r.analytic ? number(r.analytic->mean, sigFigs) : "-");
      line.push_back(r.analytic ? number(r.analytic->sd, sigFigs) : "-");
    }
    if (mcmc) {
      line.push_back(number(r.mcseMean, 2));
      line.push_back(wholeNumber(r.essBulk));
      line.push_back(wholeNumber(r.essTail));
      line.push_back(number(r.rhat, 4));
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
