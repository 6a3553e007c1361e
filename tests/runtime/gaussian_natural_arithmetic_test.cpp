// Natural-parameter arithmetic as PVI uses it: q = prior x prod_k t_k is eta_q = eta_0 + sum_k eta_k,
// the cavity is eta_q - eta_k, flat factors are the identity, and improper factors are allowed.
#include <gtest/gtest.h>

#include <vector>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

// Sums of a few O(1) numbers are exact to a few ulps; 1e-13 absolute on O(1) entries.
constexpr double kSumTol = 1e-13;
// Comparisons of derived (m, S) against LU-based references, condition numbers <= ~4: 1e-10.
constexpr double kTol = 1e-10;

TEST(NaturalArithmetic, ProductOfGaussiansMatchesPrecisionWeightedClosedForm) {
  // N(m0, S0) x N(m1, S1) is proportional to N(m, S) with S^{-1} = S0^{-1} + S1^{-1} and
  // m = S (S0^{-1} m0 + S1^{-1} m1): the classical product rule, computed here with LU inverses.
  std::mt19937_64 rng(kSeed + 16);
  const FullStandard q0 = randomFull(4, rng), q1 = randomFull(4, rng);
  const FullStandard product = toStandard(toNatural(q0) + toNatural(q1));
  const Eigen::MatrixXd P0 = q0.S.inverse(), P1 = q1.S.inverse();
  const Eigen::MatrixXd S = (P0 + P1).inverse();
  EXPECT_LT(relErr(product.S, S), kTol);
  EXPECT_LT(relErr(product.m, S * (P0 * q0.m + P1 * q1.m)), kTol);

  const MeanFieldStandard r0 = randomMeanField(4, rng), r1 = randomMeanField(4, rng);
  const MeanFieldStandard mfProduct = toStandard(toNatural(r0) + toNatural(r1));
  const Eigen::VectorXd v = (r0.var.cwiseInverse() + r1.var.cwiseInverse()).cwiseInverse();
  EXPECT_LT(relErr(mfProduct.var, v), kTol);
  EXPECT_LT(relErr(mfProduct.m, v.cwiseProduct(r0.m.cwiseQuotient(r0.var) + r1.m.cwiseQuotient(r1.var))), kTol);
}

TEST(NaturalArithmetic, PviInvariantIsMaintainedThroughUpdates) {
  // A simulated run of synchronous PVI bookkeeping: a prior, three client factors that start
  // flat, and damped deltas Delta_k = rho (eta_q' - eta_q) from arbitrary new posteriors q'.
  std::mt19937_64 rng(kSeed + 17);
  const int d = 3;
  const FullNatural eta0 = toNatural(randomFull(d, rng));
  std::vector<FullNatural> factors(3, FullNatural::flat(d));
  FullNatural etaQ = eta0;
  for (const auto& t : factors) etaQ += t;
  EXPECT_EQ(maxAbsDifference(etaQ, eta0), 0.0) << "flat factors leave q at the prior exactly";

  const double rho = 0.2;  // rho * K = 0.6 <= 1: see the validity check below
  for (int round = 0; round < 4; ++round) {
    std::vector<FullNatural> deltas;
    for (std::size_t k = 0; k < factors.size(); ++k) {
      const FullNatural cavity = etaQ - factors[k];
      (void)cavity;  // a client would optimise against this; here q' is arbitrary
      const FullNatural etaNew = toNatural(randomFull(d, rng));
      const FullNatural delta = rho * (etaNew - etaQ);
      EXPECT_TRUE(isValidFactor(delta)) << "a delta is a factor (possibly improper)";
      factors[k] += delta;
      deltas.push_back(delta);
    }
    for (const auto& delta : deltas) etaQ += delta;
    FullNatural sum = eta0;
    for (const auto& t : factors) sum += t;
    EXPECT_LT(maxAbsDifference(etaQ, sum), kSumTol) << "round " << round;
    // The new eta_q = (1 - K rho) eta_q + rho sum_k eta_k' is a convex combination of valid natural
    // parameters when K rho <= 1, and valid natural parameters form a convex cone, so q stays valid.
    EXPECT_TRUE(isValidDistribution(etaQ)) << checkDistribution(etaQ).reason;
    EXPECT_EQ(etaQ.eta2, etaQ.eta2.transpose()) << "arithmetic keeps eta2 exactly symmetric";
  }
}

TEST(NaturalArithmetic, CavityRemovesTheFactor) {
  std::mt19937_64 rng(kSeed + 18);
  const MeanFieldNatural eta0 = toNatural(randomMeanField(5, rng));
  const MeanFieldNatural t1 = toNatural(randomMeanField(5, rng)) - toNatural(randomMeanField(5, rng));
  const MeanFieldNatural t2 = 0.3 * toNatural(randomMeanField(5, rng));
  const MeanFieldNatural etaQ = eta0 + t1 + t2;
  EXPECT_LT(maxAbsDifference(etaQ - t1, eta0 + t2), kSumTol);
  EXPECT_LT(maxAbsDifference(etaQ - t2, eta0 + t1), kSumTol);
}

TEST(NaturalArithmetic, FlatIsTheIdentityAndScalingIsExact) {
  std::mt19937_64 rng(kSeed + 19);
  const FullNatural eta = toNatural(randomFull(3, rng));
  EXPECT_EQ(maxAbsDifference(eta + FullNatural::flat(3), eta), 0.0);
  EXPECT_EQ(maxAbsDifference(eta - FullNatural::flat(3), eta), 0.0);
  EXPECT_EQ(maxAbsDifference(2.0 * eta, eta + eta), 0.0);
  EXPECT_EQ(maxAbsDifference(eta * 0.0, FullNatural::flat(3)), 0.0);
  EXPECT_EQ(maxAbsDifference(-eta + eta, FullNatural::flat(3)), 0.0);
  const MeanFieldNatural etm = toNatural(randomMeanField(3, rng));
  EXPECT_EQ(maxAbsDifference(etm + MeanFieldNatural::flat(3), etm), 0.0);
  EXPECT_EQ(maxAbsDifference(2.0 * etm, etm + etm), 0.0);
  EXPECT_EQ(maxAbsDifference(etm * 0.0, MeanFieldNatural::flat(3)), 0.0);
}

TEST(NaturalArithmetic, ImproperDifferenceIsAFactorNotADistribution) {
  // A broad distribution minus a narrow one has negative precision: a legitimate PVI factor
  // (e.g. a likelihood approximation), but not a q.
  const FullNatural broad = toNatural(FullStandard{Eigen::Vector2d::Zero(), 4.0 * Eigen::Matrix2d::Identity()});
  const FullNatural narrow = toNatural(FullStandard{Eigen::Vector2d::Zero(), Eigen::Matrix2d::Identity()});
  const FullNatural diff = broad - narrow;
  EXPECT_TRUE(isValidFactor(diff));
  EXPECT_FALSE(isValidDistribution(diff));
  EXPECT_TRUE(isValidDistribution(narrow - 0.5 * diff));  // precision 1 + 0.5 * 0.75 > 0
}

TEST(NaturalArithmetic, InnerProductPairsEveryEntry) {
  const FullNatural eta{Eigen::Vector2d(1.0, 2.0), (Eigen::Matrix2d() << 3.0, 4.0, 4.0, 5.0).finished()};
  const FullMean mu{Eigen::Vector2d(6.0, 7.0), (Eigen::Matrix2d() << 8.0, 9.0, 9.0, 10.0).finished()};
  // 1*6 + 2*7 + (3*8 + 4*9 + 4*9 + 5*10) = 20 + 146 = 166.
  EXPECT_EQ(inner(eta, mu), 166.0);
  const MeanFieldNatural etm{Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d(3.0, 4.0)};
  const MeanFieldMean mum{Eigen::Vector2d(5.0, 6.0), Eigen::Vector2d(7.0, 8.0)};
  EXPECT_EQ(inner(etm, mum), 5.0 + 12.0 + 21.0 + 32.0);
}

TEST(NaturalArithmetic, DimensionMismatchThrows) {
  EXPECT_THROW(FullNatural::flat(2) + FullNatural::flat(3), std::invalid_argument);
  EXPECT_THROW(MeanFieldNatural::flat(2) - MeanFieldNatural::flat(3), std::invalid_argument);
  FullNatural a = FullNatural::flat(2);
  EXPECT_THROW(a += FullNatural::flat(3), std::invalid_argument);
  EXPECT_THROW(maxAbsDifference(FullNatural::flat(2), FullNatural::flat(3)), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
