#pragma once
// Small SVG charts for the report, written directly as text: a line chart (a metric against
// rounds) and a marginal chart (a density-scaled histogram of draws, optionally with a Gaussian
// density curve). Both have a title, labelled axes with "nice" ticks (1, 2 or 5 times a power of
// ten) and fixed size 640 x 400.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pvi::output {

// Escapes &, <, >, " and ' for XML text and attribute values.
std::string xmlEscape(std::string_view text);

// Tick positions covering [lo, hi] with about `target` ticks, all multiples of one nice step.
std::vector<double> niceTicks(double lo, double hi, int target = 5);

struct LineChart {
  std::string title;
  std::string xLabel;
  std::string yLabel;
  std::vector<double> x;
  std::vector<double> y;  // non-finite entries are gaps: the line breaks there, no marker
};
// One <circle> marker per finite point; one <polyline> per run of consecutive finite points.
std::string renderLineChart(const LineChart& chart);

struct MarginalChart {
  std::string title;
  std::string xLabel;
  std::vector<double> draws;  // non-finite draws are left out
  int bins = 0;               // 0: clamp(sqrt(n), 10, 50)
  std::optional<double> gaussianMean;  // when both are set, the N(mean, sd) density is overlaid
  std::optional<double> gaussianSd;
};
// One <rect class="bar"> per bin and, with a Gaussian, one <path class="density">.
std::string renderMarginalChart(const MarginalChart& chart);

}  // namespace pvi::output
