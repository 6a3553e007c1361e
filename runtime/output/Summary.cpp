#include "runtime/output/Summary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "runtime/diagnostics/Diagnostics.hpp"
#include "runtime/output/Quantile.hpp"

namespace pvi::output {

namespace {

void fill(ColumnSummary& s, std::vector<double> x) {
  s.draws = x.size();
  if (x.empty() || std::any_of(x.begin(), x.end(), [](double v) { return std::isnan(v); })) return;
  double sum = 0.0;
  for (double v : x) sum += v;
  s.mean = sum / static_cast<double>(x.size());
  if (x.size() > 1) {
    double ss = 0.0;  // two passes: accurate when the mean is large relative to the spread
    for (double v : x) ss += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(ss / static_cast<double>(x.size() - 1));
  }
  std::sort(x.begin(), x.end());
  s.q5 = quantileType7(x, 0.05);
  s.q50 = quantileType7(x, 0.50);
  s.q95 = quantileType7(x, 0.95);
}

}  // namespace

std::vector<ColumnSummary> summarise(const DrawsTable& draws, const std::vector<std::optional<AnalyticMoments>>& analytic) {
  const std::size_t cols = draws.columns.size();
  if (static_cast<std::size_t>(draws.values.cols()) != cols) {
    throw std::invalid_argument("summarise: the number of names and of value columns differ");
  }
  if (!analytic.empty() && analytic.size() != cols) {
    throw std::invalid_argument("summarise: analytic moments must be given for every column or none");
  }
  std::vector<ColumnSummary> out(cols);
  for (std::size_t j = 0; j < cols; ++j) {
    ColumnSummary& s = out[j];
    s.name = draws.columns[j];
    s.generated = j >= draws.numParameters;
    const auto column = draws.values.col(static_cast<Eigen::Index>(j));
    fill(s, std::vector<double>(column.begin(), column.end()));
    if (!analytic.empty()) s.analytic = analytic[j];
  }
  return out;
}

std::vector<ColumnSummary> summariseChains(const DrawsTable& draws, std::span<const std::size_t> chainOfRow) {
  if (chainOfRow.size() != static_cast<std::size_t>(draws.values.rows()))
    throw std::invalid_argument("summarise: " + std::to_string(chainOfRow.size()) + " chain labels for " +
                                std::to_string(draws.values.rows()) + " draws");
  std::vector<ColumnSummary> out = summarise(draws);
  for (std::size_t j = 0; j < out.size(); ++j) {
    const Eigen::MatrixXd chains =
        diagnostics::chainsAsColumns(draws.values.col(static_cast<Eigen::Index>(j)), chainOfRow);
    const diagnostics::Diagnostics d = diagnostics::diagnose(chains);
    out[j].mcseMean = d.mcseMean;
    out[j].essBulk = d.essBulk;
    out[j].essTail = d.essTail;
    out[j].rhat = d.rhat;
  }
  return out;
}

}  // namespace pvi::output
