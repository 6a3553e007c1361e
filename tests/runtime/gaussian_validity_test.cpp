// Validity checks: factors (what a PVI site may hold, possibly improper) versus distributions
// (what q must be), with reasons; and that conversions refuse invalid input.
#include <gtest/gtest.h>

#include <limits>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

// The reason names the problem: `reason` contains `expected`.
::testing::AssertionResult hasReason(const std::string& reason, const std::string& expected) {
  if (reason.find(expected) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "reason \"" << reason << "\" does not contain \"" << expected << "\"";
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

FullNatural validFull() {
  std::mt19937_64 rng(kSeed + 12);
  return toNatural(randomFull(3, rng));
}

MeanFieldNatural validMeanField() {
  std::mt19937_64 rng(kSeed + 13);
  return toNatural(randomMeanField(3, rng));
}

TEST(Validity, ValidParametersPass) {
  const FullNatural eta = validFull();
  EXPECT_TRUE(checkFactor(eta).ok());
  EXPECT_TRUE(checkDistribution(eta).ok()) << checkDistribution(eta).reason;
  EXPECT_TRUE(isValidDistribution(toStandard(eta)));
  EXPECT_TRUE(isValidDistribution(toMean(eta)));
  EXPECT_TRUE(isValidDistribution(toStable(toStandard(eta))));
  const MeanFieldNatural etm = validMeanField();
  EXPECT_TRUE(isValidFactor(etm));
  EXPECT_TRUE(isValidDistribution(etm));
  EXPECT_TRUE(isValidDistribution(toStandard(etm)));
  EXPECT_TRUE(isValidDistribution(toMean(etm)));
  EXPECT_TRUE(isValidDistribution(toStable(toStandard(etm))));
}

TEST(Validity, FullNonPositiveDefinitePrecisionIsRejectedAsDistribution) {
  // eta2 = [[-1, 2], [2, -1]]: P = -2 eta2 = [[2, -4], [-4, 2]] has eigenvalues 6 and -2.
  const FullNatural eta{Eigen::Vector2d(0.5, -0.5), (Eigen::Matrix2d() << -1.0, 2.0, 2.0, -1.0).finished()};
  EXPECT_TRUE(checkFactor(eta).ok()) << "an indefinite factor is still a factor";
  const Validity v = checkDistribution(eta);
  EXPECT_FALSE(v.ok());
  EXPECT_TRUE(hasReason(v.reason, "not positive definite"));
  EXPECT_THROW(toStandard(eta), std::invalid_argument);
  EXPECT_THROW(logPartition(eta), std::invalid_argument);
}

TEST(Validity, FullNegativeDefinitePrecisionIsRejected) {
  // eta2 positive definite means P negative definite.
  const FullNatural eta{Eigen::Vector2d::Zero(), Eigen::Matrix2d::Identity()};
  EXPECT_TRUE(hasReason(checkDistribution(eta).reason, "not positive definite"));
}

TEST(Validity, FullNonFiniteEntriesAreRejectedWithTheirPosition) {
  FullNatural nanEta1 = validFull();
  nanEta1.eta1(1) = kNaN;
  EXPECT_TRUE(hasReason(checkFactor(nanEta1).reason, "eta1 has a non-finite entry at [1]"));
  EXPECT_FALSE(isValidDistribution(nanEta1));

  FullNatural infEta2 = validFull();
  infEta2.eta2(0, 2) = infEta2.eta2(2, 0) = -kInf;
  EXPECT_TRUE(hasReason(checkFactor(infEta2).reason, "eta2 has a non-finite entry"));
  EXPECT_TRUE(hasReason(checkDistribution(infEta2).reason, "non-finite"));

  // A NaN on the diagonal would slip through a bare Cholesky (NaN <= 0 is false).
  FullNatural nanDiag = validFull();
  nanDiag.eta2(1, 1) = kNaN;
  EXPECT_FALSE(isValidFactor(nanDiag));
  EXPECT_FALSE(isValidDistribution(nanDiag));
  EXPECT_THROW(toStandard(nanDiag), std::invalid_argument);

  FullStandard q = toStandard(validFull());
  q.S(2, 2) = kInf;
  EXPECT_TRUE(hasReason(checkDistribution(q).reason, "non-finite"));
  EXPECT_THROW(toNatural(q), std::invalid_argument);
  q = toStandard(validFull());
  q.m(0) = kNaN;
  EXPECT_TRUE(hasReason(checkDistribution(q).reason, "non-finite"));
}

TEST(Validity, FullAsymmetricEta2IsNotAFactor) {
  FullNatural eta = validFull();
  eta.eta2(0, 1) += 0.1;
  EXPECT_TRUE(hasReason(checkFactor(eta).reason, "not symmetric"));
}

TEST(Validity, FullShapeMismatchIsRejected) {
  FullNatural eta = validFull();
  eta.eta2 = Eigen::MatrixXd::Identity(2, 2) * -1.0;
  EXPECT_TRUE(hasReason(checkFactor(eta).reason, "eta2 is 2 x 2 but eta1 has length 3"));
  EXPECT_TRUE(hasReason(checkFactor(FullNatural::flat(0)).reason, "dimension is zero"));
}

TEST(Validity, FlatFactorIsAFactorButNotADistribution) {
  for (int d : {1, 3, 10}) {
    const FullNatural flat = FullNatural::flat(d);
    EXPECT_TRUE(checkFactor(flat).ok());
    const Validity v = checkDistribution(flat);
    EXPECT_FALSE(v.ok());
    EXPECT_TRUE(hasReason(v.reason, "not positive definite"));
    EXPECT_THROW(toStandard(flat), std::invalid_argument);

    const MeanFieldNatural flatMf = MeanFieldNatural::flat(d);
    EXPECT_TRUE(checkFactor(flatMf).ok());
    EXPECT_TRUE(hasReason(checkDistribution(flatMf).reason, "not positive"));
    EXPECT_THROW(toStandard(flatMf), std::invalid_argument);
  }
}

TEST(Validity, FullCovarianceAndMeanParametersAreChecked) {
  // S = [[1, 2], [2, 1]] is symmetric but indefinite.
  const FullStandard q{Eigen::Vector2d::Zero(), (Eigen::Matrix2d() << 1.0, 2.0, 2.0, 1.0).finished()};
  EXPECT_TRUE(hasReason(checkDistribution(q).reason, "not positive definite"));
  EXPECT_THROW(toStable(q), std::invalid_argument);
  // Mean parameters whose implied covariance M - m m^T is not positive definite:
  // m = (1, 0), M = I gives S = diag(0, 1).
  const FullMean mu{Eigen::Vector2d(1.0, 0.0), Eigen::Matrix2d::Identity()};
  EXPECT_TRUE(hasReason(checkDistribution(mu).reason, "E[z z^T] - m m^T"));
  EXPECT_THROW(toStandard(mu), std::invalid_argument);
}

TEST(Validity, FullStableFormRejectsOverflowAndNaN) {
  FullStable s{Eigen::Vector2d::Zero(), Eigen::Matrix2d::Zero()};
  EXPECT_TRUE(isValidDistribution(s));
  s.logCholesky(0, 1) = kNaN;  // upper triangle is ignored
  EXPECT_TRUE(isValidDistribution(s));
  s.logCholesky(1, 0) = kNaN;
  EXPECT_TRUE(hasReason(checkDistribution(s).reason, "non-finite"));
  s.logCholesky(1, 0) = 0.0;
  s.logCholesky(1, 1) = 1000.0;  // exp overflows
  EXPECT_TRUE(hasReason(checkDistribution(s).reason, "not positive and finite"));
  EXPECT_THROW(toStandard(s), std::invalid_argument);
}

TEST(Validity, MeanFieldRejectsNonPositivePrecisionAndNonFinite) {
  MeanFieldNatural eta = validMeanField();
  eta.eta2(2) = 0.5;  // precision -1 at coordinate 2
  EXPECT_TRUE(checkFactor(eta).ok());
  EXPECT_TRUE(hasReason(checkDistribution(eta).reason, "precision -2*eta2 is not positive at [2]"));

  eta = validMeanField();
  eta.eta1(0) = kInf;
  EXPECT_TRUE(hasReason(checkFactor(eta).reason, "eta1 has a non-finite entry at [0]"));
  eta = validMeanField();
  eta.eta2(1) = kNaN;
  EXPECT_TRUE(hasReason(checkFactor(eta).reason, "eta2 has a non-finite entry at [1]"));
  EXPECT_FALSE(isValidDistribution(eta));

  eta = validMeanField();
  eta.eta2.resize(2);
  EXPECT_TRUE(hasReason(checkFactor(eta).reason, "eta2 has length 2 but eta1 has length 3"));

  const MeanFieldStandard q{Eigen::Vector2d::Zero(), Eigen::Vector2d(1.0, -1.0)};
  EXPECT_TRUE(hasReason(checkDistribution(q).reason, "variance is not positive at [1]"));
  const MeanFieldMean mu{Eigen::Vector2d(2.0, 0.0), Eigen::Vector2d(3.0, 1.0)};  // variance 3 - 4 < 0
  EXPECT_TRUE(hasReason(checkDistribution(mu).reason, "not positive at [0]"));
  const MeanFieldStable s{Eigen::Vector2d::Zero(), Eigen::Vector2d(0.0, 400.0)};  // exp(800) overflows
  EXPECT_TRUE(hasReason(checkDistribution(s).reason, "overflows"));
}

}  // namespace
}  // namespace pvi::test
