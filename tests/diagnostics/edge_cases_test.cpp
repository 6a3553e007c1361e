// Constant, non-finite and short draws. Where posterior gives a number, the expected values were
// printed, from the repository root, by (R 4.2.2, posterior 1.4.0):
//
// Rscript -e 'suppressMessages(library(posterior)); f <- function(v) cat(sprintf("%.17g", v), "\n");
//   x <- as.matrix(read.csv("tests/diagnostics/data/ar07.csv"));
//   y <- x; y[5, 2] <- Inf; f(suppressWarnings(c(rhat(y), ess_bulk(y), ess_tail(y), ess_basic(y), mcse_mean(y),
//   mcse_sd(y)))); y <- x; y[5, 2] <- -Inf; f(c(rhat(y), ess_bulk(y)));
//   f(c(rhat(x[1:4, ]), ess_bulk(x[1:4, ]), rhat(x[1:5, ]), ess_bulk(x[1:5, ]), ess_basic(x[1:6, ]),
//   ess_bulk(x[1:6, ]), rhat(x[1:6, ])));
//   o <- as.matrix(read.csv("tests/diagnostics/data/odd.csv")); o[101, 2] <- NaN;
//   f(c(rhat(o), ess_bulk(o), ess_basic(o), ess_tail(o), mcse_mean(o)));
//   y <- x; y[, 3] <- 0.5; f(c(rhat(y), ess_bulk(y), ess_tail(y), ess_basic(y), mcse_mean(y), mcse_sd(y)))'
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "draws_csv.hpp"
#include "runtime/diagnostics/Diagnostics.hpp"

namespace pvi::diagnostics {
namespace {

using test::readDraws;
using test::relativeError;

constexpr double kEdgeTolerance = 1e-8;

void expectAllNaN(const Diagnostics& d) {
  EXPECT_TRUE(std::isnan(d.rhat));
  EXPECT_TRUE(std::isnan(d.essBulk));
  EXPECT_TRUE(std::isnan(d.essTail));
  EXPECT_TRUE(std::isnan(d.mcseMean));
  EXPECT_TRUE(std::isnan(d.mcseSd));
}

TEST(EdgeCases, ConstantDrawsGiveNaN) {
  expectAllNaN(diagnose(Eigen::MatrixXd::Constant(200, 4, 0.5)));
  expectAllNaN(diagnose(Eigen::MatrixXd::Constant(200, 1, -3.0)));
  EXPECT_TRUE(std::isnan(essBasic(Eigen::MatrixXd::Constant(200, 4, 0.5))));
  EXPECT_TRUE(std::isnan(rhatBasic(Eigen::MatrixXd::Constant(200, 4, 0.5))));
}

TEST(EdgeCases, OneConstantChainAmongOthersIsDiagnosed) {
  Eigen::MatrixXd x = readDraws("ar07");
  x.col(2).setConstant(0.5);
  const Diagnostics d = diagnose(x);
  EXPECT_LT(relativeError(d.rhat, 1.5225884176453428), kEdgeTolerance);
  EXPECT_LT(relativeError(d.essBulk, 129.32505517330711), kEdgeTolerance);
  EXPECT_LT(relativeError(d.essTail, 268.75784112711085), kEdgeTolerance);
  EXPECT_LT(relativeError(essBasic(x), 127.37606691974561), kEdgeTolerance);
  EXPECT_LT(relativeError(d.mcseMean, 0.10938149130586206), kEdgeTolerance);
  EXPECT_LT(relativeError(d.mcseSd, 0.08086491557897936), kEdgeTolerance);
}

TEST(EdgeCases, ANaNDrawGivesNaN) {
  Eigen::MatrixXd x = readDraws("ar07");
  x(4, 1) = std::numeric_limits<double>::quiet_NaN();
  expectAllNaN(diagnose(x));
  EXPECT_TRUE(std::isnan(essBasic(x)));
  EXPECT_TRUE(std::isnan(rhatBasic(x)));
  EXPECT_TRUE(std::isnan(essQuantile(x, 0.5)));
}

// As in posterior, splitting drops the middle draw of an odd chain before ess_bulk and ess_basic
// look at the draws; rhat's folding and the others take the median or the mean of all draws.
TEST(EdgeCases, ANaNMiddleDrawIsDroppedBySplitting) {
  Eigen::MatrixXd x = readDraws("odd");
  x(100, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(rhat(x)));
  EXPECT_LT(relativeError(essBulk(x), 113.53695584631507), kEdgeTolerance);
  EXPECT_LT(relativeError(essBasic(x), 113.7726666724476), kEdgeTolerance);
  EXPECT_TRUE(std::isnan(essTail(x)));
  EXPECT_TRUE(std::isnan(mcseMean(x)));
}

// Ranks are defined with infinite draws, so the rank-normalised R-hat and bulk ESS are too (as in
// posterior); every diagnostic of the draws themselves or of their quantiles is NaN.
TEST(EdgeCases, InfiniteDrawsLeaveOnlyRankBasedDiagnostics) {
  Eigen::MatrixXd x = readDraws("ar07");
  x(4, 1) = std::numeric_limits<double>::infinity();
  const Diagnostics d = diagnose(x);
  EXPECT_LT(relativeError(d.rhat, 1.0097961202104633), kEdgeTolerance);
  EXPECT_LT(relativeError(d.essBulk, 157.42872137883779), kEdgeTolerance);
  EXPECT_TRUE(std::isnan(d.essTail));
  EXPECT_TRUE(std::isnan(essBasic(x)));
  EXPECT_TRUE(std::isnan(d.mcseMean));
  EXPECT_TRUE(std::isnan(d.mcseSd));
  x(4, 1) = -std::numeric_limits<double>::infinity();
  EXPECT_LT(relativeError(rhat(x), 1.0112372324812913), kEdgeTolerance);
  EXPECT_LT(relativeError(essBulk(x), 157.30393497995817), kEdgeTolerance);
}

// Fewer than 4 draws a chain: NaN (a split chain has one draw at most). posterior 1.4 gives
// numbers for 3 draws, from a matrix its split_chains turns on its side; see README.
TEST(EdgeCases, FewerThanFourDrawsAChainGiveNaN) {
  const Eigen::MatrixXd x = readDraws("ar07");
  for (Eigen::Index n = 0; n < 4; ++n) {
    SCOPED_TRACE(n);
    expectAllNaN(diagnose(x.topRows(n)));
    EXPECT_TRUE(std::isnan(rhatBasic(x.topRows(n))));
  }
  expectAllNaN(diagnose(Eigen::MatrixXd(0, 0)));
}

// ESS needs 3 draws a split chain (6 a chain); R-hat 2.
TEST(EdgeCases, ShortChainsMatchPosterior) {
  const Eigen::MatrixXd x = readDraws("ar07");
  EXPECT_LT(relativeError(rhat(x.topRows(4)), 1.870174143078648), kEdgeTolerance);
  EXPECT_TRUE(std::isnan(essBulk(x.topRows(4))));
  EXPECT_LT(relativeError(rhat(x.topRows(5)), 1.733610551234086), kEdgeTolerance);
  EXPECT_TRUE(std::isnan(essBulk(x.topRows(5))));
  EXPECT_LT(relativeError(essBasic(x.topRows(6)), 12.0), kEdgeTolerance);
  EXPECT_LT(relativeError(essBulk(x.topRows(6)), 12.0), kEdgeTolerance);
  EXPECT_LT(relativeError(rhat(x.topRows(6)), 1.8443262890506875), kEdgeTolerance);
}

TEST(EdgeCases, QuantileProbabilities) {
  const Eigen::MatrixXd x = readDraws("ar07");
  EXPECT_THROW(essQuantile(x, 1.5), std::invalid_argument);
  EXPECT_THROW(essQuantile(x, std::nan("")), std::invalid_argument);
  // posterior: ess_quantile(x, c(0, 1)) on ar07 (prob 1 is moved to (S - 0.5) / S)
  EXPECT_LT(relativeError(essQuantile(x, 0.0), 816.49316186976932), kEdgeTolerance);
  EXPECT_LT(relativeError(essQuantile(x, 1.0), 816.49316186976932), kEdgeTolerance);
}

}  // namespace
}  // namespace pvi::diagnostics
