#include "runtime/diagnostics/Draws.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace pvi::diagnostics {
namespace {

TEST(ChainsAsColumns, ColumnsFollowTheChainIdsAndRowsKeepTheirOrder) {
  const Eigen::VectorXd draws = (Eigen::VectorXd(6) << 10, 20, 11, 21, 12, 22).finished();
  const std::vector<std::size_t> chain = {2, 1, 2, 1, 2, 1};
  const Eigen::MatrixXd x = chainsAsColumns(draws, chain);
  ASSERT_EQ(x.rows(), 3);
  ASSERT_EQ(x.cols(), 2);
  EXPECT_EQ(x.col(0), Eigen::Vector3d(20, 21, 22));  // chain 1
  EXPECT_EQ(x.col(1), Eigen::Vector3d(10, 11, 12));  // chain 2
}

TEST(ChainsAsColumns, RefusesChainsOfDifferentLengths) {
  const Eigen::VectorXd draws = Eigen::VectorXd::LinSpaced(5, 0, 4);
  const std::vector<std::size_t> chain = {1, 1, 1, 2, 2};
  try {
    chainsAsColumns(draws, chain);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("chain 2 has 2 draws but chain 1 has 3"), std::string::npos) << e.what();
  }
}

TEST(ChainsAsColumns, RefusesMismatchedOrEmptyInput) {
  const std::vector<std::size_t> two = {1, 1};
  EXPECT_THROW(chainsAsColumns(Eigen::VectorXd::Zero(3), two), std::invalid_argument);
  EXPECT_THROW(chainsAsColumns(Eigen::VectorXd(0), std::vector<std::size_t>{}), std::invalid_argument);
}

TEST(SplitChains, EvenChainsAreHalved) {
  Eigen::MatrixXd x(4, 2);
  x << 1, 5, 2, 6, 3, 7, 4, 8;
  Eigen::MatrixXd expected(2, 4);
  expected << 1, 5, 3, 7, 2, 6, 4, 8;
  EXPECT_EQ(splitChains(x), expected);
}

TEST(SplitChains, OddChainsLoseTheirMiddleDraw) {
  Eigen::MatrixXd x(5, 1);
  x << 1, 2, 3, 4, 5;
  Eigen::MatrixXd expected(2, 2);
  expected << 1, 4, 2, 5;
  EXPECT_EQ(splitChains(x), expected);
}

TEST(SplitChains, OneIterationIsLeftAsItIs) {
  const Eigen::MatrixXd x = Eigen::RowVector3d(1, 2, 3);
  EXPECT_EQ(splitChains(x), x);
}

TEST(Undiagnosable, EmptyNonFiniteOrConstant) {
  EXPECT_TRUE(undiagnosable(Eigen::MatrixXd(0, 3)));
  EXPECT_TRUE(undiagnosable(Eigen::MatrixXd::Constant(3, 2, 7.0)));
  Eigen::MatrixXd x = Eigen::MatrixXd::Identity(3, 2);
  EXPECT_FALSE(undiagnosable(x));
  x(1, 0) = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(undiagnosable(x));
  x(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(undiagnosable(x));
  // Constant up to the machine epsilon (absolute), as posterior's is_constant.
  EXPECT_TRUE(undiagnosable(Eigen::Vector2d(1.0, 1.0 + 1e-16)));
  EXPECT_FALSE(undiagnosable(Eigen::Vector2d(0.0, 1e-15)));
}

}  // namespace
}  // namespace pvi::diagnostics
