// The white coordinates of Adam's local optimisation (runtime/algorithms/pvi/WhitenedCoordinates.hpp):
//   - the origin (all zeros) is the received q exactly;
//   - the gradient chain rule, by central finite differences on every white coordinate of an
//     objective written in the test from (m, L) with L built independently (L = L0 B);
//   - scale-freeness: under z -> A z (A diagonal), q0 -> A q0 and the same white point maps to
//     A times the same q', so Adam's iterates do not depend on the units.
// Finite differences: h = 1e-5 on objectives with third derivatives O(10) at these points:
// truncation ~1e-9, rounding ~1e-10; tolerance 1e-6 relative to max(1, |gradient|).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "runtime/algorithms/pvi/WhitenedCoordinates.hpp"
#include "runtime/families/FullGaussianStable.hpp"
#include "runtime/families/MeanFieldGaussianStable.hpp"

namespace pvi::test {
namespace {
using namespace pvi::algorithms;

constexpr double kH = 1e-5;

Eigen::MatrixXd lowerWithExpDiagonal(const Eigen::MatrixXd& packed) {
  Eigen::MatrixXd L = packed.triangularView<Eigen::StrictlyLower>();
  L.diagonal() = packed.diagonal().array().exp().matrix();
  return L;
}

FullStable randomFull(int d, std::mt19937_64& rng, double scale) {
  std::normal_distribution<double> n(0.0, 1.0);
  FullStable s{Eigen::VectorXd(d), Eigen::MatrixXd::Zero(d, d)};
  for (int i = 0; i < d; ++i) {
    s.m(i) = scale * n(rng);
    for (int j = 0; j < i; ++j) s.logCholesky(i, j) = 0.3 * scale * n(rng);
    s.logCholesky(i, i) = std::log(scale) + 0.3 * n(rng);
  }
  return s;
}

// A smooth objective of (m, L): a . m + sum_ij W_ij L_ij + 0.5 sum_i log L_ii^2 - 0.1 |m|^4 / 4.
struct Objective {
  Eigen::VectorXd a;
  Eigen::MatrixXd W;
  double operator()(const Eigen::VectorXd& m, const Eigen::MatrixXd& L) const {
    const double m2 = m.squaredNorm();
    return a.dot(m) + (W.array() * L.array()).sum() + L.diagonal().array().abs().log().sum() - 0.025 * m2 * m2;
  }
  Eigen::VectorXd dm(const Eigen::VectorXd& m) const { return a - 0.1 * m.squaredNorm() * m; }
  Eigen::MatrixXd dL(const Eigen::MatrixXd& L) const {
    Eigen::MatrixXd g = W;
    g.diagonal() += L.diagonal().cwiseInverse();
    return g;  // the upper triangle is junk on purpose: it must be ignored
  }
};

TEST(WhitenedCoordinates, OriginIsTheReceivedDistribution) {
  std::mt19937_64 rng(3);
  const FullStable q0 = randomFull(4, rng, 1.0);
  const FullOrigin o = whiteningOrigin(q0);
  const FullStable back = fromWhite(o, whiteOrigin(o));
  EXPECT_LT((back.m - q0.m).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((lowerWithExpDiagonal(back.logCholesky) - lowerWithExpDiagonal(q0.logCholesky)).cwiseAbs().maxCoeff(),
            1e-15);
  const MeanFieldStable mf{Eigen::VectorXd::LinSpaced(3, -1, 2), Eigen::VectorXd::LinSpaced(3, -2, 1)};
  const MeanFieldOrigin mo = whiteningOrigin(mf);
  const MeanFieldStable mback = fromWhite(mo, whiteOrigin(mo));
  EXPECT_EQ(mback.m, mf.m);
  EXPECT_EQ(mback.logSd, mf.logSd);
}

TEST(WhitenedCoordinates, FullGradientMatchesFiniteDifferences) {
  std::mt19937_64 rng(11);
  const int d = 4;
  const FullStable q0 = randomFull(d, rng, 2.0);
  const FullOrigin o = whiteningOrigin(q0);
  FullStable white = randomFull(d, rng, 0.3);  // a point away from the origin
  Objective f{Eigen::VectorXd::LinSpaced(d, -1, 1), Eigen::MatrixXd::Random(d, d)};
  const auto value = [&](const FullStable& w) {
    const Eigen::VectorXd m = o.m + o.L * w.m;
    const Eigen::MatrixXd L = o.L * lowerWithExpDiagonal(w.logCholesky);
    return f(m, L);
  };
  const FullStable at = fromWhite(o, white);
  const Eigen::MatrixXd L = lowerWithExpDiagonal(at.logCholesky);
  EXPECT_LT((L - o.L * lowerWithExpDiagonal(white.logCholesky)).cwiseAbs().maxCoeff(), 1e-12);
  const FullStable g = whiteGradient(o, white, f.dm(at.m), f.dL(L));
  for (int i = 0; i < d; ++i) {
    FullStable p = white, q = white;
    p.m(i) += kH;
    q.m(i) -= kH;
    const double fd = (value(p) - value(q)) / (2 * kH);
    EXPECT_NEAR(g.m(i), fd, 1e-6 * std::max(1.0, std::abs(fd))) << "du[" << i << "]";
    for (int j = 0; j <= i; ++j) {
      p = white;
      q = white;
      p.logCholesky(i, j) += kH;
      q.logCholesky(i, j) -= kH;
      const double fdl = (value(p) - value(q)) / (2 * kH);
      EXPECT_NEAR(g.logCholesky(i, j), fdl, 1e-6 * std::max(1.0, std::abs(fdl))) << "dB(" << i << ", " << j << ")";
    }
  }
}

TEST(WhitenedCoordinates, MeanFieldGradientMatchesFiniteDifferences) {
  const int d = 3;
  const MeanFieldStable q0{Eigen::Vector3d(1e3, -2.0, 0.01), Eigen::Vector3d(std::log(50.0), 0.0, std::log(1e-3))};
  const MeanFieldOrigin o = whiteningOrigin(q0);
  const MeanFieldStable white{Eigen::Vector3d(0.2, -0.4, 0.1), Eigen::Vector3d(-0.1, 0.3, 0.2)};
  const Eigen::Vector3d a(0.5, -1.0, 2.0);
  // F(m, sd) = a . (m - m0) / sd0 - 0.5 |(m - m0) / sd0|^2 + sum log sd - |sd / sd0|^2 / 2.
  const auto value = [&](const MeanFieldStable& w) {
    const Eigen::ArrayXd m = o.m.array() + o.sd.array() * w.m.array();
    const Eigen::ArrayXd sd = o.sd.array() * w.logSd.array().exp();
    const Eigen::ArrayXd r = (m - o.m.array()) / o.sd.array();
    return (a.array() * r).sum() - 0.5 * r.square().sum() + sd.log().sum() - 0.5 * (sd / o.sd.array()).square().sum();
  };
  const MeanFieldStable at = fromWhite(o, white);
  const Eigen::ArrayXd sd = at.logSd.array().exp();
  const Eigen::ArrayXd r = (at.m - o.m).array() / o.sd.array();
  const Eigen::VectorXd dFdm = ((a.array() - r) / o.sd.array()).matrix();
  const Eigen::VectorXd dFdsd = (1.0 / sd - sd / o.sd.array().square()).matrix();
  const MeanFieldStable g = whiteGradient(o, white, dFdm, dFdsd);
  for (int i = 0; i < d; ++i) {
    MeanFieldStable p = white, q = white;
    p.m(i) += kH;
    q.m(i) -= kH;
    EXPECT_NEAR(g.m(i), (value(p) - value(q)) / (2 * kH), 1e-6) << "du[" << i << "]";
    p = white;
    q = white;
    p.logSd(i) += kH;
    q.logSd(i) -= kH;
    EXPECT_NEAR(g.logSd(i), (value(p) - value(q)) / (2 * kH), 1e-6) << "dv[" << i << "]";
  }
}

TEST(WhitenedCoordinates, AWhitePointMeansTheSameInAnyUnits) {
  std::mt19937_64 rng(5);
  const int d = 3;
  const FullStable q0 = randomFull(d, rng, 1.0);
  const FullStable white = randomFull(d, rng, 0.5);
  const Eigen::Vector3d units(1e4, 1.0, 1e-3);  // z -> A z
  const Eigen::MatrixXd L0 = lowerWithExpDiagonal(q0.logCholesky);
  FullStable scaled{units.asDiagonal() * q0.m, Eigen::MatrixXd::Zero(d, d)};
  const Eigen::MatrixXd AL0 = units.asDiagonal() * L0;
  scaled.logCholesky = AL0.triangularView<Eigen::StrictlyLower>();
  scaled.logCholesky.diagonal() = AL0.diagonal().array().log().matrix();
  const FullStable a = fromWhite(whiteningOrigin(q0), white);
  const FullStable b = fromWhite(whiteningOrigin(scaled), white);
  const Eigen::VectorXd mA = units.asDiagonal() * a.m;
  const Eigen::MatrixXd LA = units.asDiagonal() * lowerWithExpDiagonal(a.logCholesky);
  EXPECT_LT(((b.m - mA).array() / mA.array().abs().max(1e-300)).abs().maxCoeff(), 1e-12);
  const Eigen::MatrixXd Lb = lowerWithExpDiagonal(b.logCholesky);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j <= i; ++j) EXPECT_NEAR(Lb(i, j), LA(i, j), 1e-12 * std::abs(LA(i, j)) + 1e-300);
}

}  // namespace
}  // namespace pvi::test
