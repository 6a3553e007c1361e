// Round trips between the parameterisations of both Gaussian families, and the maps against
// their definitions.
//
// Tolerance: 1e-10 relative (Frobenius). The random parameters have covariance condition number
// <= 4 and |m_i| <= 1.5, so a Cholesky-based round trip loses at most a few hundred ulps
// (roughly D * cond^2 * eps ~ 4e-14 for D = 10); 1e-10 leaves three orders of margin while any
// algebraic slip (a missing factor 2, a transpose, S for P) produces an O(1) error.
#include <gtest/gtest.h>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

constexpr double kTol = 1e-10;
constexpr int kDrawsPerDim = 5;

class RoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(RoundTrip, FullNaturalMeanNatural) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const FullNatural eta = toNatural(randomFull(GetParam(), rng));
    const FullNatural back = toNatural(toMean(eta));
    EXPECT_LT(relErr(back.eta1, eta.eta1), kTol);
    EXPECT_LT(relErr(back.eta2, eta.eta2), kTol);
  }
}

TEST_P(RoundTrip, FullNaturalStandardNatural) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const FullNatural eta = toNatural(randomFull(GetParam(), rng));
    const FullNatural back = toNatural(toStandard(eta));
    EXPECT_LT(relErr(back.eta1, eta.eta1), kTol);
    EXPECT_LT(relErr(back.eta2, eta.eta2), kTol);
  }
}

TEST_P(RoundTrip, FullStandardMeanStandard) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const FullStandard q = randomFull(GetParam(), rng);
    const FullStandard back = toStandard(toMean(q));
    EXPECT_LT(relErr(back.m, q.m), kTol);
    EXPECT_LT(relErr(back.S, q.S), kTol);
  }
}

TEST_P(RoundTrip, FullStandardStableStandard) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const FullStandard q = randomFull(GetParam(), rng);
    const FullStable stable = toStable(q);
    const FullStandard back = toStandard(stable);
    EXPECT_LT(relErr(back.m, q.m), kTol);
    EXPECT_LT(relErr(back.S, q.S), kTol);
    // And the other way: stable -> standard -> stable.
    const FullStable again = toStable(back);
    EXPECT_LT(relErr(again.logCholesky, stable.logCholesky), kTol);
  }
}

TEST_P(RoundTrip, MeanFieldNaturalMeanNatural) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const MeanFieldNatural eta = toNatural(randomMeanField(GetParam(), rng));
    const MeanFieldNatural back = toNatural(toMean(eta));
    EXPECT_LT(relErr(back.eta1, eta.eta1), kTol);
    EXPECT_LT(relErr(back.eta2, eta.eta2), kTol);
  }
}

TEST_P(RoundTrip, MeanFieldNaturalStandardNatural) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const MeanFieldNatural eta = toNatural(randomMeanField(GetParam(), rng));
    const MeanFieldNatural back = toNatural(toStandard(eta));
    EXPECT_LT(relErr(back.eta1, eta.eta1), kTol);
    EXPECT_LT(relErr(back.eta2, eta.eta2), kTol);
  }
}

TEST_P(RoundTrip, MeanFieldStandardStableStandard) {
  std::mt19937_64 rng(kSeed + GetParam());
  for (int k = 0; k < kDrawsPerDim; ++k) {
    const MeanFieldStandard q = randomMeanField(GetParam(), rng);
    const MeanFieldStable stable = toStable(q);
    const MeanFieldStandard back = toStandard(stable);
    EXPECT_LT(relErr(back.m, q.m), kTol);
    EXPECT_LT(relErr(back.var, q.var), kTol);
    EXPECT_LT(relErr(toStable(back).logSd, stable.logSd), kTol);
  }
}

// Round trips alone would accept a pair of maps that are wrong in matching ways; these check each
// map against its definition, with the inverse computed by LU in the test.
TEST_P(RoundTrip, FullMapsMatchDefinitions) {
  std::mt19937_64 rng(kSeed + 100 + GetParam());
  const FullStandard q = randomFull(GetParam(), rng);
  const Eigen::MatrixXd p = q.S.inverse();
  const FullNatural eta = toNatural(q);
  EXPECT_LT(relErr(eta.eta1, p * q.m), kTol);
  EXPECT_LT(relErr(eta.eta2, -0.5 * p), kTol);
  EXPECT_EQ(eta.eta2, eta.eta2.transpose()) << "eta2 must come out exactly symmetric";

  const FullMean mu = toMean(q);
  EXPECT_EQ(mu.m, q.m);
  EXPECT_LT(relErr(mu.second, q.S + q.m * q.m.transpose()), kTol);

  // Stable: lower triangle of L with log on the diagonal, L L^T = S, upper triangle zero.
  const FullStable stable = toStable(q);
  Eigen::MatrixXd l = stable.logCholesky;
  for (Eigen::Index i = 0; i < l.rows(); ++i) {
    l(i, i) = std::exp(l(i, i));
    for (Eigen::Index j = i + 1; j < l.cols(); ++j) EXPECT_EQ(stable.logCholesky(i, j), 0.0);
  }
  EXPECT_LT(relErr(l * l.transpose(), q.S), kTol);
}

TEST_P(RoundTrip, MeanFieldMapsMatchDefinitions) {
  std::mt19937_64 rng(kSeed + 200 + GetParam());
  const MeanFieldStandard q = randomMeanField(GetParam(), rng);
  const MeanFieldNatural eta = toNatural(q);
  EXPECT_LT(relErr(eta.eta1, q.m.cwiseQuotient(q.var)), kTol);
  EXPECT_LT(relErr(eta.eta2, -0.5 * q.var.cwiseInverse()), kTol);
  const MeanFieldMean mu = toMean(q);
  EXPECT_LT(relErr(mu.second, q.var + q.m.cwiseAbs2()), kTol);
  const MeanFieldStable stable = toStable(q);
  EXPECT_LT(relErr(stable.logSd.array().exp().square().matrix(), q.var), kTol);  // logSd is log of sd, not of var
}

INSTANTIATE_TEST_SUITE_P(Dims, RoundTrip, ::testing::Values(1, 3, 10),
                         [](const auto& info) { return "D" + std::to_string(info.param); });

}  // namespace
}  // namespace pvi::test
