#pragma once
// Per-column posterior summaries from draws: mean, standard deviation (n - 1 denominator) and the
// 5%, 50% and 95% quantiles by R's type 7 rule (Quantile.hpp). When a column holds a NaN, all its
// statistics are NaN. The caller may add the analytic mean and sd of a column (e.g. of q's
// marginal when the column's transform is the identity). Draws from a sampler's chains also get
// the MCMC diagnostics as Stan reports them (runtime/diagnostics/): the MCSE of the mean, bulk and
// tail ESS, and rank-normalised split R-hat.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/output/Results.hpp"

namespace pvi::output {

struct AnalyticMoments {
  double mean = kNaN;
  double sd = kNaN;
};

struct ColumnSummary {
  std::string name;
  bool generated = false;  // a generated quantity rather than a parameter
  std::size_t draws = 0;
  double mean = kNaN;
  double sd = kNaN;
  double q5 = kNaN;
  double q50 = kNaN;
  double q95 = kNaN;
  std::optional<AnalyticMoments> analytic;
  // MCMC diagnostics: NaN for draws that are not from a sampler's chains, or where undefined.
  double mcseMean = kNaN;
  double essBulk = kNaN;
  double essTail = kNaN;
  double rhat = kNaN;
};

// `analytic` is empty or has one entry per column of `draws`.
std::vector<ColumnSummary> summarise(const DrawsTable& draws,
                                     const std::vector<std::optional<AnalyticMoments>>& analytic = {});
// Draws from chains: `chainOfRow` gives each row's chain (chains of equal length); throws
// std::invalid_argument when its size differs from the number of draws.
std::vector<ColumnSummary> summariseChains(const DrawsTable& draws, std::span<const std::size_t> chainOfRow);

}  // namespace pvi::output
