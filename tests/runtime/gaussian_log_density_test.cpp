// Log density of a point, against the textbook formula (LU inverse and determinant in the test),
// the exponential-family form eta^T T(z) - A(eta), and hand-computed values.
//
// Tolerance 1e-10 relative to max(1, |log q|): condition numbers <= 4, D <= 10, points within a
// few standard deviations, so both evaluations are accurate to ~1e-14.
#include <gtest/gtest.h>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

constexpr double kDensityTol = 1e-10;

double tol(double ref) { return kDensityTol * std::max(1.0, std::abs(ref)); }

TEST(LogDensity, HandComputed) {
  // Standard normal at 0: -log(2 pi)/2.
  const FullStandard std1{Eigen::VectorXd::Zero(1), Eigen::MatrixXd::Identity(1, 1)};
  EXPECT_NEAR(logDensity(std1, Eigen::VectorXd::Zero(1)), -0.5 * log2pi(), 1e-15);
  // N(1, 4) at 3: -log(2 pi * 4)/2 - (2^2)/(2 * 4) = -log(8 pi)/2 - 1/2.
  const FullStandard q1{Eigen::VectorXd::Constant(1, 1.0), Eigen::MatrixXd::Constant(1, 1, 4.0)};
  EXPECT_NEAR(logDensity(q1, Eigen::VectorXd::Constant(1, 3.0)), -0.5 * std::log(8.0 * std::numbers::pi) - 0.5, 1e-14);
  // 2x2: m = (1, 2), S = [[2, 1], [1, 2]], z = (2, 1): r = (1, -1), S^{-1} r = 1/3 (2 + 1, -1 - 2) = (1, -1),
  // r^T S^{-1} r = 2, so log q = -log(2 pi) - log(3)/2 - 1.
  const FullStandard q2{Eigen::Vector2d(1.0, 2.0), (Eigen::Matrix2d() << 2.0, 1.0, 1.0, 2.0).finished()};
  EXPECT_NEAR(logDensity(q2, Eigen::Vector2d(2.0, 1.0)), -log2pi() - 0.5 * std::log(3.0) - 1.0, 1e-14);
}

class LogDensityDims : public ::testing::TestWithParam<int> {};

TEST_P(LogDensityDims, FullMatchesIndependentFormulas) {
  std::mt19937_64 rng(kSeed + 80 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const FullStandard q = randomFull(GetParam(), rng);
    const Eigen::VectorXd z = q.m + uniformVector(GetParam(), -2.0, 2.0, rng);
    const double ref = refLogDensity(q, z);
    EXPECT_NEAR(logDensity(q, z), ref, tol(ref));
    // Exponential family: log q(z) = eta1^T z + z^T eta2 z - A(eta).
    const FullNatural eta = toNatural(q);
    EXPECT_NEAR(eta.eta1.dot(z) + z.dot(eta.eta2 * z) - logPartition(eta), ref, tol(ref));
  }
}

TEST_P(LogDensityDims, MeanFieldMatchesIndependentFormulas) {
  std::mt19937_64 rng(kSeed + 90 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const MeanFieldStandard q = randomMeanField(GetParam(), rng);
    const Eigen::VectorXd z = q.m + uniformVector(GetParam(), -2.0, 2.0, rng);
    double ref = 0.0;  // product of univariate normals
    for (Eigen::Index i = 0; i < z.size(); ++i)
      ref += -0.5 * std::log(2.0 * std::numbers::pi * q.var(i)) - 0.5 * std::pow(z(i) - q.m(i), 2) / q.var(i);
    EXPECT_NEAR(logDensity(q, z), ref, tol(ref));
    EXPECT_NEAR(logDensity(asFull(q), z), ref, tol(ref));
    const MeanFieldNatural eta = toNatural(q);
    EXPECT_NEAR(eta.eta1.dot(z) + eta.eta2.dot(z.cwiseAbs2()) - logPartition(eta), ref, tol(ref));
  }
}

TEST_P(LogDensityDims, ColumnsFormMatchesPointwise) {
  std::mt19937_64 rng(kSeed + 95 + GetParam());
  const FullStandard q = randomFull(GetParam(), rng);
  const MeanFieldStandard qm = randomMeanField(GetParam(), rng);
  Eigen::MatrixXd Z(GetParam(), 4);
  for (int j = 0; j < 4; ++j) Z.col(j) = uniformVector(GetParam(), -3.0, 3.0, rng);
  const Eigen::VectorXd full = logDensityColumns(q, Z), mf = logDensityColumns(qm, Z);
  ASSERT_EQ(full.size(), 4);
  for (int j = 0; j < 4; ++j) {
    EXPECT_NEAR(full(j), refLogDensity(q, Z.col(j)), tol(full(j)));
    EXPECT_NEAR(mf(j), refLogDensity(asFull(qm), Z.col(j)), tol(mf(j)));
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, LogDensityDims, ::testing::Values(1, 3, 10),
                         [](const auto& info) { return "D" + std::to_string(info.param); });

TEST(LogDensity, WrongPointLengthThrows) {
  std::mt19937_64 rng(kSeed + 14);
  EXPECT_THROW(logDensity(randomFull(3, rng), Eigen::VectorXd::Zero(2)), std::invalid_argument);
  EXPECT_THROW(logDensity(randomMeanField(3, rng), Eigen::VectorXd::Zero(2)), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
