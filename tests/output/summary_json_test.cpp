// The JSON summary parses back with nlohmann and carries every promised field.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "OutputTestSupport.hpp"
#include "runtime/output/SummaryJson.hpp"

namespace pvi::output {
namespace {

FitResults sampleResults() {
  FitResults r;
  r.run.model = "logistic_regression";
  r.run.dataFiles = {"d.json"};
  r.run.algorithm = "pvi";
  r.run.family = "meanfield";
  r.run.options = {{"schedule", "sequential"}, {"damping", "0.25"}};
  r.run.seed = 99;
  r.run.rounds = 3;
  r.run.startDatetime = "2025-01-02 03:04:05 UTC";
  DrawsTable t;
  t.columns = {"beta.1", "beta.2", "y_rep"};
  t.numParameters = 2;
  t.values.resize(3, 3);
  t.values << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  r.summary = summarise(t, {AnalyticMoments{4.0, 3.0}, std::nullopt, std::nullopt});
  r.elbo = -123.5;
  r.elboStandardError = 0.25;
  r.communication = {.serverUpdates = 6, .messagesUp = 6, .messagesDown = 6, .bytesUp = 480, .bytesDown = 481,
                     .dropped = 1, .accepted = 5, .rejected = 0};
  r.elapsedSeconds = 1.5;
  for (std::size_t k = 1; k <= 3; ++k) {
    TraceRow row;
    row.round = k;
    row.elbo = k == 2 ? kNaN : -100.0 - static_cast<double>(k);  // round 2 did not evaluate it
    row.seconds = 0.5 * static_cast<double>(k);
    row.communication.messagesUp = 2 * k;
    row.communication.bytesDown = 160 * k;
    row.metrics["test_accuracy"] = 0.5 + 0.1 * static_cast<double>(k);
    r.trace.push_back(row);
  }
  return r;
}

TEST(SummaryJson, ParsesBackWithAllFields) {
  test::TempDir dir;
  writeSummaryJson(dir / "summary.json", sampleResults());
  const auto j = nlohmann::json::parse(test::readFile(dir / "summary.json"));

  EXPECT_EQ(j.at("format"), "pvic-summary/1");
  EXPECT_FALSE(j.at("pvic_version").get<std::string>().empty());
  EXPECT_EQ(j.at("model"), "logistic_regression");
  EXPECT_EQ(j.at("data_files"), nlohmann::json::array({"d.json"}));
  EXPECT_EQ(j.at("algorithm"), "pvi");
  EXPECT_EQ(j.at("family"), "meanfield");
  EXPECT_EQ(j.at("options").at("damping"), "0.25");
  EXPECT_EQ(j.at("seed"), 99);
  EXPECT_EQ(j.at("draws"), 3);
  EXPECT_EQ(j.at("quantile_rule"), "R type 7");

  ASSERT_EQ(j.at("parameters").size(), 2u);
  const auto& b1 = j.at("parameters")[0];
  EXPECT_EQ(b1.at("name"), "beta.1");
  EXPECT_DOUBLE_EQ(b1.at("mean").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(b1.at("sd").get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(b1.at("q5").get<double>(), 1.3);   // h = 0.1 on {1, 4, 7}
  EXPECT_DOUBLE_EQ(b1.at("q50").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(b1.at("q95").get<double>(), 6.7);
  EXPECT_DOUBLE_EQ(b1.at("analytic_mean").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(b1.at("analytic_sd").get<double>(), 3.0);
  EXPECT_FALSE(j.at("parameters")[1].contains("analytic_mean"));
  ASSERT_EQ(j.at("generated_quantities").size(), 1u);
  EXPECT_EQ(j.at("generated_quantities")[0].at("name"), "y_rep");

  EXPECT_DOUBLE_EQ(j.at("elbo").get<double>(), -123.5);
  EXPECT_DOUBLE_EQ(j.at("elbo_se").get<double>(), 0.25);
  EXPECT_TRUE(j.at("log_evidence").is_null());  // not estimated: null, not NaN
  EXPECT_EQ(j.at("rounds"), 3);
  const auto& c = j.at("communication");
  EXPECT_EQ(c.at("messages_up"), 6);
  EXPECT_EQ(c.at("messages_down"), 6);
  EXPECT_EQ(c.at("bytes_up"), 480);
  EXPECT_EQ(c.at("bytes_down"), 481);
  EXPECT_EQ(c.at("dropped"), 1);
  EXPECT_DOUBLE_EQ(j.at("elapsed_seconds").get<double>(), 1.5);

  ASSERT_EQ(j.at("trace").size(), 3u);
  const auto& t2 = j.at("trace")[1];
  EXPECT_EQ(t2.at("round"), 2);
  EXPECT_TRUE(t2.at("elbo").is_null());
  EXPECT_EQ(t2.at("messages_up"), 4);
  EXPECT_EQ(t2.at("bytes_down"), 320);
  EXPECT_DOUBLE_EQ(t2.at("metrics").at("test_accuracy").get<double>(), 0.7);
  EXPECT_DOUBLE_EQ(j.at("trace")[2].at("elbo").get<double>(), -103.0);
}

TEST(SummaryJson, InvalidUtf8InNamesDoesNotThrow) {
  FitResults r = sampleResults();
  r.run.model = std::string("bad\xff" "name");
  EXPECT_NO_THROW(nlohmann::json::parse(summaryJson(r)));
}

}  // namespace
}  // namespace pvi::output
