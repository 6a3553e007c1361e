// The quantile rule (R type 7) and per-column summaries.
#include <gtest/gtest.h>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <random>

#include "runtime/output/Quantile.hpp"
#include "runtime/output/Summary.hpp"

namespace pvi::output {
namespace {

// Hand computation, h = (n - 1) p on the sorted values {1, 2, 3, 4, 10}:
//   p = 0.05: h = 0.2, 1 + 0.2 * (2 - 1) = 1.2
//   p = 0.50: h = 2,   3
//   p = 0.95: h = 3.8, 4 + 0.8 * (10 - 4) = 8.8
//   p = 0.25: h = 1,   2;  p = 0.9: h = 3.6, 4 + 0.6 * 6 = 7.6
TEST(Quantile, Type7MatchesHandComputation) {
  const std::vector<double> x = {10, 3, 1, 4, 2};
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 0.05), 1.2);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 0.50), 3.0);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 0.95), 8.8);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 0.25), 2.0);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 0.90), 7.6);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted(x, 1.0), 10.0);
}

// Even n: {0, 10}: the median is the midpoint, the 5% point is 0.5; one value: itself.
TEST(Quantile, SmallSamples) {
  EXPECT_DOUBLE_EQ(quantileType7Unsorted({10.0, 0.0}, 0.5), 5.0);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted({10.0, 0.0}, 0.05), 0.5);
  EXPECT_DOUBLE_EQ(quantileType7Unsorted({-3.5}, 0.95), -3.5);
  EXPECT_TRUE(std::isnan(quantileType7Unsorted({}, 0.5)));
  EXPECT_THROW(quantileType7Unsorted({1.0}, 1.5), std::invalid_argument);
}

// A large normal sample: the sample quantiles agree with Boost's normal quantiles within Monte
// Carlo error, sd(Q_p) ~ sqrt(p (1 - p) / n) / f(x_p); 4.5 of those is the tolerance.
TEST(Quantile, LargeNormalSampleMatchesBoostQuantiles) {
  const double mu = 1.5, sigma = 2.0;
  const std::size_t n = 200000;
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal(mu, sigma);
  DrawsTable t;
  t.columns = {"x"};
  t.numParameters = 1;
  t.values.resize(static_cast<Eigen::Index>(n), 1);
  for (std::size_t i = 0; i < n; ++i) t.values(static_cast<Eigen::Index>(i), 0) = normal(rng);
  const ColumnSummary s = summarise(t)[0];

  const boost::math::normal_distribution<double> dist(mu, sigma);
  for (const auto& [p, value] : {std::pair{0.05, s.q5}, std::pair{0.5, s.q50}, std::pair{0.95, s.q95}}) {
    const double exact = boost::math::quantile(dist, p);
    const double se = std::sqrt(p * (1 - p) / n) / boost::math::pdf(dist, exact);
    EXPECT_NEAR(value, exact, 4.5 * se) << "p = " << p;
  }
  EXPECT_NEAR(s.mean, mu, 4.5 * sigma / std::sqrt(n));
  EXPECT_NEAR(s.sd, sigma, 4.5 * sigma / std::sqrt(2.0 * n));
  EXPECT_EQ(s.draws, n);
}

TEST(Summary, ColumnsKindsAndAnalyticMoments) {
  DrawsTable t;
  t.columns = {"a", "b", "gq"};
  t.numParameters = 2;
  t.values.resize(4, 3);
  t.values << 1, 10, 0,  //
      2, 20, 0,          //
      3, 30, 0,          //
      6, 40, std::nan("");
  const std::vector<ColumnSummary> s = summarise(t, {AnalyticMoments{2.5, 1.0}, std::nullopt, std::nullopt});
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "a");
  EXPECT_FALSE(s[0].generated);
  EXPECT_DOUBLE_EQ(s[0].mean, 3.0);
  EXPECT_DOUBLE_EQ(s[0].sd, std::sqrt(14.0 / 3.0));  // squares about 3: 4 + 1 + 0 + 9, over n - 1
  EXPECT_DOUBLE_EQ(s[0].q50, 2.5);
  EXPECT_DOUBLE_EQ(s[0].q5, 1.15);   // h = 0.15
  EXPECT_DOUBLE_EQ(s[0].q95, 5.55);  // h = 2.85: 3 + 0.85 * 3
  ASSERT_TRUE(s[0].analytic);
  EXPECT_EQ(s[0].analytic->mean, 2.5);
  EXPECT_FALSE(s[1].analytic);
  EXPECT_DOUBLE_EQ(s[1].mean, 25.0);
  EXPECT_TRUE(s[2].generated);
  EXPECT_TRUE(std::isnan(s[2].mean));  // a NaN draw makes every statistic NaN
  EXPECT_TRUE(std::isnan(s[2].q50));
  EXPECT_THROW(summarise(t, {AnalyticMoments{}}), std::invalid_argument);
}

TEST(Summary, OneDrawHasNoStandardDeviation) {
  DrawsTable t{{"a"}, Eigen::MatrixXd::Constant(1, 1, 4.0), 1};
  const ColumnSummary s = summarise(t)[0];
  EXPECT_EQ(s.mean, 4.0);
  EXPECT_TRUE(std::isnan(s.sd));
  EXPECT_EQ(s.q5, 4.0);
}

}  // namespace
}  // namespace pvi::output
