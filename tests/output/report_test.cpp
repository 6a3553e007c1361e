// SVG charts and the report directory: well-formed XML with the expected elements.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include "OutputTestSupport.hpp"
#include "XmlCheck.hpp"
#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/Report.hpp"
#include "runtime/output/Svg.hpp"

namespace pvi::output {
namespace {

using test::checkXml;
using test::count;
using test::XmlElement;

std::vector<XmlElement> parse(const std::string& svg) {
  std::vector<XmlElement> elements;
  const std::string problem = checkXml(svg, &elements);
  EXPECT_EQ(problem, "") << svg.substr(0, 2000);
  return elements;
}

std::size_t countClass(const std::vector<XmlElement>& elements, const std::string& name, const std::string& cls) {
  std::size_t n = 0;
  for (const XmlElement& e : elements) {
    if (e.name != name) continue;
    for (const auto& [k, v] : e.attributes) n += k == "class" && v == cls;
  }
  return n;
}

// Text content of the first <text class="cls">...</text>.
std::string textOf(const std::string& svg, const std::string& cls) {
  const std::size_t at = svg.find("<text class=\"" + cls + "\"");
  if (at == std::string::npos) return "";
  const std::size_t start = svg.find('>', at) + 1;
  return svg.substr(start, svg.find("</text>", start) - start);
}

TEST(Svg, NiceTicksAreRoundAndCoverTheRange) {
  EXPECT_EQ(niceTicks(0.0, 10.0, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(niceTicks(-0.3, 0.27, 5), (std::vector<double>{-0.3, -0.2, -0.1, 0, 0.1, 0.2}));
  const std::vector<double> t = niceTicks(1234.0, 1289.0, 5);
  ASSERT_GE(t.size(), 3u);
  for (double v : t) {
    EXPECT_GE(v, 1234.0);
    EXPECT_LE(v, 1289.0);
    EXPECT_EQ(std::fmod(v, 10.0), 0.0) << v;
  }
  EXPECT_TRUE(niceTicks(1.0, 1.0).empty());
}

TEST(Svg, LineChartHasOnePointPerFiniteValueAndBreaksAtGaps) {
  LineChart c{"ELBO & <friends>", "communication round", "ELBO", {1, 2, 3, 4, 5, 6}, {-10, -8, NAN, -7, -6.5, -6.4}};
  const std::string svg = renderLineChart(c);
  const auto elements = parse(svg);
  EXPECT_EQ(countClass(elements, "circle", "point"), 5u);
  EXPECT_EQ(countClass(elements, "polyline", "series"), 2u);  // split at the NaN
  EXPECT_EQ(textOf(svg, "x-label"), "communication round");
  EXPECT_EQ(textOf(svg, "y-label"), "ELBO");
  EXPECT_EQ(textOf(svg, "title"), "ELBO &amp; &lt;friends&gt;");
  EXPECT_GE(countClass(elements, "text", "tick-label"), 6u);  // both axes have ticks
  EXPECT_NE(svg.find(">-8<"), std::string::npos);             // a round tick value on the y axis
}

TEST(Svg, LineChartWithoutFiniteValuesSaysSo) {
  const std::string svg = renderLineChart({"t", "x", "y", {1, 2}, {NAN, NAN}});
  const auto elements = parse(svg);
  EXPECT_EQ(countClass(elements, "circle", "point"), 0u);
  EXPECT_EQ(textOf(svg, "note"), "no finite values");
}

TEST(Svg, MarginalChartHasBinsAndDensityCurve) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal(2.0, 0.5);
  MarginalChart c{"Posterior marginal of mu", "mu", {}, 20, 2.0, 0.5};
  for (int i = 0; i < 1000; ++i) c.draws.push_back(normal(rng));
  c.draws.push_back(NAN);  // left out
  const std::string svg = renderMarginalChart(c);
  const auto elements = parse(svg);
  EXPECT_EQ(countClass(elements, "rect", "bar"), 20u);
  EXPECT_EQ(countClass(elements, "path", "density"), 1u);
  EXPECT_EQ(textOf(svg, "x-label"), "mu");
  EXPECT_EQ(textOf(svg, "y-label"), "density");
  // The histogram is density-scaled, like the curve: the tallest bar is about as high as the
  // N(2, 0.5) peak (1000 draws, 20 bins over about 6.5 sd: within 20%). Heights in pixels above the
  // x axis at y = 345.
  double barTop = 1e9;
  for (const XmlElement& e : elements) {
    bool bar = false;
    double y = 0;
    for (const auto& [k, v] : e.attributes) {
      if (k == "class") bar = v == "bar";
      if (k == "y") y = std::stod(v);
    }
    if (e.name == "rect" && bar) barTop = std::min(barTop, y);
  }
  double curveTop = 1e9;
  const std::size_t d = svg.find(" d=\"", svg.find("class=\"density\""));
  std::istringstream path(svg.substr(d + 4, svg.find('"', d + 4) - d - 4));
  for (std::string point; path >> point;) {
    if (point == "L") continue;
    curveTop = std::min(curveTop, std::stod(point.substr(point.find(',') + 1)));
  }
  const double axis = 345.0;
  EXPECT_NEAR((axis - barTop) / (axis - curveTop), 1.0, 0.2) << barTop << " " << curveTop;

  c.gaussianMean.reset();
  const auto noCurve = parse(renderMarginalChart(c));
  EXPECT_EQ(countClass(noCurve, "path", "density"), 0u);
}

TEST(Svg, MarginalChartOfConstantDrawsIsStillValid) {
  const auto elements = parse(renderMarginalChart({"c", "c", std::vector<double>(50, 3.0), 10, std::nullopt, std::nullopt}));
  EXPECT_EQ(countClass(elements, "rect", "bar"), 10u);
}

ReportInput sampleReport() {
  ReportInput in;
  in.run.model = "six<cities>";
  in.run.algorithm = "pvi";
  in.run.rounds = 4;
  in.run.dataFiles = {"d.json"};
  for (std::size_t k = 1; k <= 4; ++k) {
    TraceRow r;
    r.round = k;
    r.elbo = -50.0 + static_cast<double>(k);
    r.metrics["test accuracy"] = 0.6 + 0.05 * static_cast<double>(k);
    in.trace.push_back(r);
  }
  DrawsTable t;
  t.columns = {"alpha", "beta.1", "y_rep.1"};
  t.numParameters = 2;
  t.values = Eigen::MatrixXd::Random(200, 3);
  in.marginals = marginalsFromDraws(t, {AnalyticMoments{0.0, 0.57}, std::nullopt, std::nullopt});
  return in;
}

TEST(Report, WritesChartsAndAnIndexLinkingThem) {
  test::TempDir dir;
  const auto written = writeReport(dir / "report", sampleReport());
  const std::vector<std::string> expected = {"elbo.svg", "index.html", "marginal-alpha.svg", "marginal-beta.1.svg",
                                             "metric-test_accuracy.svg"};
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir / "report")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, expected);  // generated quantities get no marginal chart; no temporary files left
  ASSERT_EQ(written.size(), 5u);
  EXPECT_EQ(written.back().filename(), "index.html");

  const std::string index = test::readFile(dir / "report" / "index.html");
  for (const std::string svg : {"elbo.svg", "metric-test_accuracy.svg", "marginal-alpha.svg", "marginal-beta.1.svg"}) {
    EXPECT_EQ(count(index, "src=\"" + svg + "\""), 1u) << svg;
    const std::string text = test::readFile(dir / "report" / svg);
    EXPECT_EQ(checkXml(text), "") << svg;
  }
  EXPECT_NE(index.find("six&lt;cities&gt;"), std::string::npos);
  const std::string elbo = test::readFile(dir / "report" / "elbo.svg");
  EXPECT_EQ(count(elbo, "<circle class=\"point\""), 4u);
  EXPECT_EQ(count(test::readFile(dir / "report" / "marginal-alpha.svg"), "class=\"density\""), 1u);
  EXPECT_EQ(count(test::readFile(dir / "report" / "marginal-beta.1.svg"), "class=\"density\""), 0u);
}

TEST(Report, CapsTheNumberOfMarginalsAndSaysSo) {
  test::TempDir dir;
  ReportInput in = sampleReport();
  in.maxMarginals = 1;
  in.trace.clear();
  writeReport(dir.path(), in);
  EXPECT_TRUE(std::filesystem::exists(dir / "marginal-alpha.svg"));
  EXPECT_FALSE(std::filesystem::exists(dir / "marginal-beta.1.svg"));
  EXPECT_FALSE(std::filesystem::exists(dir / "elbo.svg"));
  EXPECT_NE(test::readFile(dir / "index.html").find("1 more parameters are not plotted"), std::string::npos);
}

TEST(Report, RunWithoutElboEvaluationsSaysSo) {
  test::TempDir dir;
  ReportInput in = sampleReport();
  for (TraceRow& r : in.trace) r.elbo = kNaN;
  writeReport(dir.path(), in);
  EXPECT_FALSE(std::filesystem::exists(dir / "elbo.svg"));
  EXPECT_NE(test::readFile(dir / "index.html").find("ELBO was not evaluated"), std::string::npos);
}

TEST(Report, UnusableDirectoryIsAnOutputError) {
  test::TempDir dir;
  std::filesystem::path file = dir / "file";
  std::ofstream(file) << "x";
  EXPECT_THROW(writeReport(file, sampleReport()), OutputError);
}

}  // namespace
}  // namespace pvi::output
