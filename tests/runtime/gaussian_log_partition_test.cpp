// The log-partition A(eta) against closed forms, and grad A(eta) == mu by central finite
// differences on every coordinate of eta (design section 9: "check every map ... by the identity
// grad A(eta) == mu, by finite differences").
#include <gtest/gtest.h>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

// Finite differences. Central differences with step h have error
//   |FD - A'| <= h^2/6 max|A'''| + (rounding of A) / h.
// For the test parameters (|m_i| <= 1.5, covariance eigenvalues in [0.5, 2], D <= 10) the third
// derivatives of A along one coordinate, i.e. third cumulants of the sufficient statistics
// (z, z z^T), stay below about 1e3 (terms like 8 S^2 m^2 and S^3), giving <= 1.7e-8 of
// truncation at h = 1e-5; A (|A| <= 50) is evaluated to a few ulps, so the rounding term is about
// 1e-14 / 1e-5 = 1e-9. A tolerance of 1e-6 on each derivative leaves a margin of ~50 over that
// bound, while the 0.25-for-0.5 slip of design section 9 would be off by |m_i| = O(1).
constexpr double kH = 1e-5;
constexpr double kFdTol = 1e-6;

// A evaluated to rounding; reference checks use 1e-12 relative (cond <= 4, D <= 10).
constexpr double kValueTol = 1e-12;

TEST(LogPartition, FullHandComputed1D) {
  // eta1 = 2, eta2 = -1/2: P = 1, m = 2, S = 1. A = 1/2 m P m + 1/2 log S + 1/2 log 2 pi = 2 + log(2 pi)/2.
  const FullNatural eta{Eigen::VectorXd::Constant(1, 2.0), Eigen::MatrixXd::Constant(1, 1, -0.5)};
  EXPECT_NEAR(logPartition(eta), 2.0 + 0.5 * log2pi(), 1e-14);
}

TEST(LogPartition, FullHandComputed2x2) {
  // m = (1, 2), S = [[2, 1], [1, 2]] (det 3), P = S^{-1} = 1/3 [[2, -1], [-1, 2]].
  // P m = 1/3 (2 - 2, -1 + 4) = (0, 1), so m^T P m = 2 and
  // A = 1/2 * 2 + 1/2 log 3 + (2/2) log 2 pi = 1 + log(3)/2 + log(2 pi).
  // (The 0.25-coefficient slip of design section 9 would give 1/2 + ... instead.)
  FullStandard q{Eigen::Vector2d(1.0, 2.0), (Eigen::Matrix2d() << 2.0, 1.0, 1.0, 2.0).finished()};
  EXPECT_NEAR(logPartition(toNatural(q)), 1.0 + 0.5 * std::log(3.0) + log2pi(), 1e-13);
}

class LogPartitionDims : public ::testing::TestWithParam<int> {};

TEST_P(LogPartitionDims, FullMatchesStandardClosedForm) {
  std::mt19937_64 rng(kSeed + 10 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const FullStandard q = randomFull(GetParam(), rng);
    const double ref = refLogPartition(q);
    EXPECT_NEAR(logPartition(toNatural(q)), ref, kValueTol * std::abs(ref));
  }
}

TEST_P(LogPartitionDims, FullGradientIsMeanByFiniteDifferences) {
  std::mt19937_64 rng(kSeed + 20 + GetParam());
  const FullNatural eta = toNatural(randomFull(GetParam(), rng));
  const FullMean mu = gradLogPartition(eta);
  const FullMean muRef = toMean(toStandard(eta));
  EXPECT_LT(relErr(mu.m, muRef.m), 1e-12);
  EXPECT_LT(relErr(mu.second, muRef.second), 1e-12);

  const Eigen::Index d = eta.dim();
  auto centralDiff = [&](auto perturb) {
    FullNatural plus = eta, minus = eta;
    perturb(plus, kH);
    perturb(minus, -kH);
    return (logPartition(plus) - logPartition(minus)) / (2.0 * kH);
  };
  for (Eigen::Index i = 0; i < d; ++i) {
    const double fd = centralDiff([&](FullNatural& e, double h) { e.eta1(i) += h; });
    EXPECT_NEAR(fd, mu.m(i), kFdTol) << "d A / d eta1[" << i << "]";
  }
  for (Eigen::Index i = 0; i < d; ++i) {
    for (Eigen::Index j = i; j < d; ++j) {
      // eta2 is symmetric, so move (i, j) and (j, i) together. With dA = sum_ij M_ij d eta2_ij,
      // the change is h (M_ij + M_ji) = 2 h M_ij off the diagonal and h M_ii on it.
      const double fd = centralDiff([&](FullNatural& e, double h) {
        e.eta2(i, j) += h;
        if (i != j) e.eta2(j, i) += h;
      });
      const double expected = (i == j ? 1.0 : 2.0) * mu.second(i, j);
      EXPECT_NEAR(fd, expected, kFdTol) << "d A / d eta2(" << i << ", " << j << ") (symmetric pair)";
    }
  }
}

TEST_P(LogPartitionDims, MeanFieldMatchesStandardClosedForm) {
  std::mt19937_64 rng(kSeed + 30 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const MeanFieldStandard q = randomMeanField(GetParam(), rng);
    const double ref = refLogPartition(asFull(q));
    EXPECT_NEAR(logPartition(toNatural(q)), ref, kValueTol * std::abs(ref));
  }
}

TEST_P(LogPartitionDims, MeanFieldGradientIsMeanByFiniteDifferences) {
  std::mt19937_64 rng(kSeed + 40 + GetParam());
  const MeanFieldNatural eta = toNatural(randomMeanField(GetParam(), rng));
  const MeanFieldMean mu = gradLogPartition(eta);
  auto centralDiff = [&](Eigen::VectorXd MeanFieldNatural::*part, Eigen::Index i) {
    MeanFieldNatural plus = eta, minus = eta;
    (plus.*part)(i) += kH;
    (minus.*part)(i) -= kH;
    return (logPartition(plus) - logPartition(minus)) / (2.0 * kH);
  };
  for (Eigen::Index i = 0; i < eta.dim(); ++i) {
    EXPECT_NEAR(centralDiff(&MeanFieldNatural::eta1, i), mu.m(i), kFdTol) << "d A / d eta1[" << i << "]";
    EXPECT_NEAR(centralDiff(&MeanFieldNatural::eta2, i), mu.second(i), kFdTol) << "d A / d eta2[" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, LogPartitionDims, ::testing::Values(1, 3, 10),
                         [](const auto& info) { return "D" + std::to_string(info.param); });

}  // namespace
}  // namespace pvi::test
