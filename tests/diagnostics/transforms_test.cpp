// Ranks, rank normalisation, folding and quantiles. The expected values were printed by (R 4.2.2,
// posterior 1.4.0):
//
// Rscript -e 'suppressMessages(library(posterior)); f <- function(v) cat(sprintf("%.17g", v), "\n");
//   x <- c(3, 1, 4, 1, 5, 9, 2, 6); f(z_scale(x)); f(quantile(x, c(0.05, 0.25, 0.5, 0.95, 1))); f(median(x))'
#include "runtime/diagnostics/Transforms.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/diagnostics/Quantile.hpp"

namespace pvi::diagnostics {
namespace {

// Two chains of four: 3 1 4 1 | 5 9 2 6 (column-major, as R's vector c(3, 1, 4, 1, 5, 9, 2, 6)).
Eigen::MatrixXd piDigits() {
  Eigen::MatrixXd x(4, 2);
  x << 3, 5, 1, 9, 4, 2, 1, 6;
  return x;
}

TEST(AverageRanks, TiesShareTheMeanOfTheirRanks) {
  Eigen::MatrixXd expected(4, 2);
  expected << 4, 6, 1.5, 8, 5, 3, 1.5, 7;
  EXPECT_EQ(averageRanks(piDigits()), expected);
}

TEST(AverageRanks, NaNsAreLeftOutAndInfinitiesRanked) {
  const Eigen::Vector4d x(2.0, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::infinity());
  const Eigen::MatrixXd r = averageRanks(x);
  EXPECT_EQ(r(0), 2.0);
  EXPECT_TRUE(std::isnan(r(1)));
  EXPECT_EQ(r(2), 1.0);
  EXPECT_EQ(r(3), 3.0);
}

TEST(RankNormalise, MatchesPosteriorZScale) {
  const double expected[] = {-0.15250597424624437, -1.0968035620935135, 0.15250597424624424,  -1.0968035620935135,
                             0.47278912099226722,  1.4342001596863794,  -0.47278912099226728, 0.85249503427469386};
  const Eigen::MatrixXd z = rankNormalise(piDigits());
  for (Eigen::Index i = 0; i < 8; ++i) EXPECT_NEAR(z.reshaped()[i], expected[i], 1e-14) << i;
}

TEST(Fold, DistanceFromTheMedianOfAllDraws) {
  Eigen::MatrixXd expected(4, 2);
  expected << 0.5, 1.5, 2.5, 5.5, 0.5, 1.5, 2.5, 2.5;  // median 3.5
  EXPECT_EQ(fold(piDigits()), expected);
}

TEST(Quantile, RType7) {
  const Eigen::MatrixXd x = piDigits();
  EXPECT_DOUBLE_EQ(quantile(x, 0.05), 1.0);
  EXPECT_DOUBLE_EQ(quantile(x, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(x, 0.5), 3.5);
  EXPECT_DOUBLE_EQ(quantile(x, 0.95), 7.9499999999999984);
  EXPECT_DOUBLE_EQ(quantile(x, 1.0), 9.0);
  EXPECT_EQ(median(x), 3.5);
  EXPECT_EQ(quantile(Eigen::Vector3d(2, 1, 3), 0.5), 2.0);
}

TEST(Quantile, NaNOrNothingGivesNaNAndBadProbabilitiesThrow) {
  EXPECT_TRUE(std::isnan(quantile(Eigen::MatrixXd(0, 1), 0.5)));
  EXPECT_TRUE(std::isnan(quantile(Eigen::Vector2d(1, std::numeric_limits<double>::quiet_NaN()), 0.5)));
  EXPECT_THROW(quantile(Eigen::Vector2d(1, 2), -0.1), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::diagnostics
