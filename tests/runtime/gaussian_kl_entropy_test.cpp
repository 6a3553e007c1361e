// Closed-form KL divergence and entropy of both Gaussian families, against formulas written in
// the test (reference: explicit LU inverse and determinant), a hand-computed 2x2 case, the
// exponential-family identities that tie them to A(eta), and the mean-field/full agreement.
#include <gtest/gtest.h>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

// Random cases: covariance condition numbers <= 4 and D <= 10, so both the runtime's Cholesky
// evaluation and the LU reference are accurate to ~1e-14 relative; 1e-10 leaves ample margin,
// while a wrong term (trace, quadratic, log-det, the constant D) is off by O(1).
constexpr double kKlTol = 1e-10;

// The hand-computed case.
//   q1: m1 = (1, 2),  S1 = [[2, 1], [1, 2]],  det S1 = 3
//   q2: m2 = (-1, 3), S2 = [[4, 2], [2, 3]],  det S2 = 8,  S2^{-1} = 1/8 [[3, -2], [-2, 4]]
//   S2^{-1} S1 = 1/8 [[3*2 - 2*1, 3*1 - 2*2], [-2*2 + 4*1, -2*1 + 4*2]] = 1/8 [[4, -1], [0, 6]],
//     so tr(S2^{-1} S1) = 10/8 = 5/4.
//   d = m2 - m1 = (-2, 1), S2^{-1} d = 1/8 (-6 - 2, 4 + 4) = (-1, 1), d^T S2^{-1} d = 2 + 1 = 3.
//   KL(q1 || q2) = 1/2 [5/4 + 3 - 2 + log(8/3)] = 9/8 + log(8/3)/2 = 1.615414626505863...
// (Checked with exact rational arithmetic for the rational part, 9/8. Through the Bregman identity
// below, the 0.25-for-0.5 slip in A of design section 9 would give 1/32 + log(8/3)/2 = 0.52166...)
FullStandard handQ1() { return {Eigen::Vector2d(1.0, 2.0), (Eigen::Matrix2d() << 2.0, 1.0, 1.0, 2.0).finished()}; }
FullStandard handQ2() { return {Eigen::Vector2d(-1.0, 3.0), (Eigen::Matrix2d() << 4.0, 2.0, 2.0, 3.0).finished()}; }
const double kHandKl = 9.0 / 8.0 + 0.5 * std::log(8.0 / 3.0);
// Rounding in a 2x2 Cholesky and a few logs: a few ulps of ~1.6; 1e-13 is ~200 ulps.
constexpr double kHandTol = 1e-13;

// KL(q1 || q2) = A(eta2) - A(eta1) - <eta2 - eta1, mu1> (the Bregman divergence of A).
double bregmanKl(const FullStandard& q1, const FullStandard& q2) {
  const FullNatural e1 = toNatural(q1), e2 = toNatural(q2);
  return logPartition(e2) - logPartition(e1) - inner(e2 - e1, toMean(q1));
}

TEST(KlEntropy, FullHandComputed2x2) {
  EXPECT_NEAR(kl(handQ1(), handQ2()), kHandKl, kHandTol);
  EXPECT_NEAR(refKl(handQ1(), handQ2()), kHandKl, kHandTol);  // the reference formula agrees
  EXPECT_NEAR(bregmanKl(handQ1(), handQ2()), kHandKl, kHandTol);
}

TEST(KlEntropy, FullHandComputedEntropy2x2) {
  // H(q1) = 1/2 log det(2 pi e S1) = 1/2 [2 log(2 pi e) + log 3] = 1 + log(2 pi) + log(3)/2.
  EXPECT_NEAR(entropy(handQ1()), 1.0 + log2pi() + 0.5 * std::log(3.0), kHandTol);
}

TEST(KlEntropy, KlOfDistributionWithItselfIsExactlyZero) {
  std::mt19937_64 rng(kSeed + 1);
  for (int d : {1, 3, 10}) {
    const FullStandard q = randomFull(d, rng);
    EXPECT_EQ(kl(q, q), 0.0) << "D = " << d;
    const MeanFieldStandard qm = randomMeanField(d, rng);
    EXPECT_EQ(kl(qm, qm), 0.0) << "D = " << d;
  }
}

TEST(KlEntropy, KlIsNonNegativeAndSmallForNearbyDistributions) {
  // Near q1 = q2 the closed form would subtract O(D) terms; the runtime's form must stay >= 0 and
  // agree with the second-order expansion KL ~ 1/2 dm^T S^{-1} dm for a pure mean shift.
  std::mt19937_64 rng(kSeed + 2);
  const FullStandard q = randomFull(10, rng);
  FullStandard shifted = q;
  const Eigen::VectorXd dm = 1e-6 * uniformVector(10, -1.0, 1.0, rng);
  shifted.m += dm;
  const double expected = 0.5 * dm.dot(q.S.inverse() * dm);  // exact for a pure mean shift
  EXPECT_GE(kl(q, shifted), 0.0);
  EXPECT_NEAR(kl(q, shifted), expected, kKlTol * expected);  // relative, although KL ~ 1e-12
}

class KlEntropyDims : public ::testing::TestWithParam<int> {};

TEST_P(KlEntropyDims, FullKlMatchesClosedForm) {
  std::mt19937_64 rng(kSeed + 50 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const FullStandard q1 = randomFull(GetParam(), rng), q2 = randomFull(GetParam(), rng);
    const double ref = refKl(q1, q2);
    EXPECT_NEAR(kl(q1, q2), ref, kKlTol * std::max(1.0, ref));
    EXPECT_NEAR(bregmanKl(q1, q2), ref, kKlTol * std::max(1.0, ref));
    EXPECT_GT(kl(q1, q2), 0.0);
  }
}

TEST_P(KlEntropyDims, FullEntropyMatchesClosedFormAndIdentity) {
  std::mt19937_64 rng(kSeed + 60 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const FullStandard q = randomFull(GetParam(), rng);
    const double ref = refEntropy(q);
    EXPECT_NEAR(entropy(q), ref, kKlTol * std::max(1.0, std::abs(ref)));
    // Exponential family: H = A(eta) - <eta, mu>.
    const FullNatural eta = toNatural(q);
    EXPECT_NEAR(logPartition(eta) - inner(eta, toMean(q)), ref, kKlTol * std::max(1.0, std::abs(ref)));
    // The stable form's shortcut (sum of the log-Cholesky diagonal).
    EXPECT_NEAR(entropy(toStable(q)), ref, kKlTol * std::max(1.0, std::abs(ref)));
  }
}

TEST_P(KlEntropyDims, MeanFieldMatchesFullOnDiagonalCovariances) {
  std::mt19937_64 rng(kSeed + 70 + GetParam());
  for (int k = 0; k < 5; ++k) {
    const MeanFieldStandard q1 = randomMeanField(GetParam(), rng), q2 = randomMeanField(GetParam(), rng);
    const double refK = refKl(asFull(q1), asFull(q2));
    EXPECT_NEAR(kl(q1, q2), refK, kKlTol * std::max(1.0, refK));
    EXPECT_NEAR(kl(q1, q2), kl(asFull(q1), asFull(q2)), kKlTol * std::max(1.0, refK));
    const double refH = refEntropy(asFull(q1));
    EXPECT_NEAR(entropy(q1), refH, kKlTol * std::max(1.0, std::abs(refH)));
    EXPECT_NEAR(entropy(q1), entropy(asFull(q1)), kKlTol * std::max(1.0, std::abs(refH)));
    EXPECT_NEAR(entropy(toStable(q1)), refH, kKlTol * std::max(1.0, std::abs(refH)));
    const MeanFieldNatural eta = toNatural(q1);
    EXPECT_NEAR(logPartition(eta) - inner(eta, toMean(q1)), refH, kKlTol * std::max(1.0, std::abs(refH)));
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, KlEntropyDims, ::testing::Values(1, 3, 10),
                         [](const auto& info) { return "D" + std::to_string(info.param); });

TEST(KlEntropy, DimensionMismatchThrows) {
  std::mt19937_64 rng(kSeed + 3);
  EXPECT_THROW(kl(randomFull(2, rng), randomFull(3, rng)), std::invalid_argument);
  EXPECT_THROW(kl(randomMeanField(2, rng), randomMeanField(3, rng)), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
