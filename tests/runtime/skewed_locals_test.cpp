// The skewed q(w | z): the sinh-arcsinh transform (families/SinhArcsinh.hpp) and a
// ConditionalGaussian with a shape (families/ConditionalGaussian.hpp).
//
// Independent references:
//   - the transform's derivatives: central finite differences;
//   - its mean and variance: Jones and Pewsey's (2009) closed forms through Bessel K (Boost.Math);
//   - E[log T'(x)]: Boost.Math's sinh-sinh quadrature over the real line;
//   - the shaped conditional's log density: log phi(xi) - log |det dw/dxi|, the Jacobian by central
//     differences of the draws; its entropy and the marginal moments of (z, w): Monte Carlo means
//     of many draws, within 5 standard errors.
// The gradients of E[f] + H over the shape's parameters are checked in structured_locals_test.cpp.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <boost/math/quadrature/sinh_sinh.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <numbers>
#include <random>

#include "runtime/families/ConditionalGaussian.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/families/GaussianCalculus.hpp"
#include "runtime/families/SinhArcsinh.hpp"
#include "runtime/families/StandardNormal.hpp"

namespace pvi::test {
namespace {

namespace sas = sinh_arcsinh;

struct Shape {
  double skew, tail;
};
const Shape kShapes[] = {{0.0, 1.0}, {0.6, 1.0}, {-0.4, 0.7}, {1.2, 1.8}, {0.3, 0.5}, {-1.0, 3.0}};

TEST(SinhArcsinh, IsTheIdentityWithoutSkewAndWithUnitTail) {
  for (double x : {-3.0, -0.5, 0.0, 0.7, 4.0}) {
    EXPECT_NEAR(sas::transform(x, 0.0, 1.0), x, 1e-14);
    EXPECT_NEAR(sas::logDerivative(x, 0.0, 1.0), 0.0, 1e-14);
    EXPECT_NEAR(sas::at(x, 0.0, 1.0).score, x, 1e-13);
  }
  const sas::Moments mo = sas::moments(0.0, 1.0);
  EXPECT_NEAR(mo.mean, 0.0, 1e-14);
  EXPECT_NEAR(mo.variance, 1.0, 1e-12);
  EXPECT_NEAR(mo.expectedLogSlope, 0.0, 1e-14);
}

TEST(SinhArcsinh, DerivativesMatchFiniteDifferences) {
  const double h = 1e-6;
  for (const Shape s : kShapes)
    for (double x : {-2.5, -0.3, 0.0, 0.8, 2.0}) {
      EXPECT_NEAR(sas::inverse(sas::transform(x, s.skew, s.tail), s.skew, s.tail), x, 1e-10);
      const double slope = (sas::transform(x + h, s.skew, s.tail) - sas::transform(x - h, s.skew, s.tail)) / (2.0 * h);
      EXPECT_NEAR(sas::logDerivative(x, s.skew, s.tail), std::log(slope), 1e-7) << s.skew << " " << s.tail << " " << x;
      // -log density of u at u = T(x): x^2 / 2 + log T'(x) with x = T^-1(u), differentiated over u.
      const double u = sas::transform(x, s.skew, s.tail);
      const sas::Point p = sas::at(x, s.skew, s.tail);
      EXPECT_NEAR(p.u, u, 1e-12 * (1.0 + std::abs(u)));
      const auto minusLogDensity = [&](double v) {
        const double y = sas::inverse(v, s.skew, s.tail);
        return 0.5 * y * y + sas::logDerivative(y, s.skew, s.tail);
      };
      const double hu = h * (1.0 + std::abs(u));
      EXPECT_NEAR(p.score, (minusLogDensity(u + hu) - minusLogDensity(u - hu)) / (2.0 * hu),
                  1e-6 * (1.0 + std::abs(x)));
      EXPECT_NEAR(p.overSkew,
                  (sas::transform(x, s.skew + h, s.tail) - sas::transform(x, s.skew - h, s.tail)) / (2.0 * h), 1e-6);
      EXPECT_NEAR(p.overLogTail,
                  (sas::transform(x, s.skew, s.tail * std::exp(h)) - sas::transform(x, s.skew, s.tail * std::exp(-h))) /
                      (2.0 * h),
                  1e-6 * (1.0 + std::abs(u)));
    }
}

// Jones and Pewsey (2009), section 3: E[u] = sinh(skew / tail) P(1 / tail) and
// E[u^2] = (cosh(2 skew / tail) P(2 / tail) - 1) / 2, P(q) = e^(1/4) / sqrt(8 pi) (K_((q+1)/2)(1/4) +
// K_((q-1)/2)(1/4)).
double jonesPewseyP(double q) {
  using boost::math::cyl_bessel_k;
  return std::exp(0.25) / std::sqrt(8.0 * std::numbers::pi) *
         (cyl_bessel_k((q + 1.0) / 2.0, 0.25) + cyl_bessel_k((q - 1.0) / 2.0, 0.25));
}

TEST(SinhArcsinh, MomentsMatchTheClosedFormsAndAnIndependentQuadrature) {
  boost::math::quadrature::sinh_sinh<double> integrator;
  for (const Shape s : kShapes) {
    const sas::Moments mo = sas::moments(s.skew, s.tail);
    const double mean = std::sinh(s.skew / s.tail) * jonesPewseyP(1.0 / s.tail);
    const double second = 0.5 * (std::cosh(2.0 * s.skew / s.tail) * jonesPewseyP(2.0 / s.tail) - 1.0);
    EXPECT_NEAR(mo.mean, mean, 1e-10 * (1.0 + std::abs(mean))) << s.skew << " " << s.tail;
    EXPECT_NEAR(mo.variance, second - mean * mean, 1e-9 * second) << s.skew << " " << s.tail;
    const double logSlope = integrator.integrate(
        [&](double x) {
          return std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi) * sas::logDerivative(x, s.skew, s.tail);
        },
        1e-14);
    // The quadrature's error grows as the tail falls: 2e-10 at tail 0.5, under 1e-11 from tail 0.7 up.
    EXPECT_NEAR(mo.expectedLogSlope, logSlope, 1e-9) << s.skew << " " << s.tail;
  }
}

// A shaped conditional with a coupling and a scale coupling.
ConditionalGaussian shapedConditional() {
  ConditionalGaussian q;
  q.mean = Eigen::Vector3d(0.5, -1.0, 2.0);
  q.coupling = (Eigen::MatrixXd(3, 2) << 0.6, -0.3, 0.2, 0.9, -0.5, 0.1).finished();
  q.anchor = Eigen::Vector2d(0.3, -0.2);
  q.sd = Eigen::Vector3d(0.7, 1.3, 0.4);
  q.scaleCoupling = (Eigen::MatrixXd(3, 2) << 0.25, -0.1, 0.0, 0.3, -0.2, 0.15).finished();
  q.skew = Eigen::Vector3d(0.8, -0.5, 0.0);
  q.tail = Eigen::Vector3d(1.0, 0.7, 1.6);
  return q;
}
FullStandard someQz() { return {Eigen::Vector2d(0.1, 0.4), (Eigen::Matrix2d() << 0.5, 0.2, 0.2, 0.8).finished()}; }

TEST(SkewedConditional, ChecksItsShape) {
  ConditionalGaussian q = shapedConditional();
  ASSERT_TRUE(check(q)) << check(q).reason;
  q.tail[1] = -0.5;
  EXPECT_NE(check(q).reason.find("tail 2"), std::string::npos) << check(q).reason;
  q = shapedConditional();
  q.unitLower = Eigen::MatrixXd::Identity(3, 3);
  EXPECT_NE(check(q).reason.find("correlated"), std::string::npos) << check(q).reason;
  q = shapedConditional();
  q.skew.resize(2);
  EXPECT_FALSE(check(q));
  const ConditionalGaussian skewedOnly =
      withShape(ConditionalGaussian::independent(q.mean, q.sd), {false, false, false, true}, 2);
  EXPECT_THROW(independentLocals(skewedOnly, "the natural-gradient optimiser"), std::invalid_argument);
  // withShape adds the identity shape and drops it again.
  const ConditionalGaussian plain = withShape(shapedConditional(), {true, true, false, false}, 2);
  EXPECT_FALSE(plain.shaped());
  const ConditionalGaussian again = withShape(plain, {true, true, false, true}, 2);
  EXPECT_EQ(again.skew, Eigen::VectorXd::Zero(3));
  EXPECT_EQ(again.tail, Eigen::VectorXd::Ones(3));
}

TEST(SkewedConditional, LogDensityIsTheChangeOfVariables) {
  const ConditionalGaussian q = shapedConditional();
  const FullStandard qz = someQz();
  std::mt19937_64 rng(21);
  const Eigen::MatrixXd Z = reparamDraws(qz.m, reparamRoot(qz), standardNormals(2, 6, rng));
  const Eigen::MatrixXd xi = standardNormals(3, 6, rng);
  const Eigen::MatrixXd W = conditionalDraws(q, Z, xi);
  const Eigen::VectorXd got = conditionalLogDensity(q, Z, W);
  const double h = 1e-6;
  for (Eigen::Index i = 0; i < 6; ++i) {
    Eigen::Matrix3d J;
    for (Eigen::Index k = 0; k < 3; ++k) {
      Eigen::MatrixXd up = xi.col(i), down = xi.col(i);
      up(k, 0) += h;
      down(k, 0) -= h;
      J.col(k) = (conditionalDraws(q, Z.col(i), up) - conditionalDraws(q, Z.col(i), down)) / (2.0 * h);
    }
    const double logPhi = -0.5 * xi.col(i).squaredNorm() - 1.5 * std::log(2.0 * std::numbers::pi);
    EXPECT_NEAR(got[i], logPhi - std::log(std::abs(J.determinant())), 1e-7) << i;
  }
  // Re-anchoring keeps the distribution.
  EXPECT_LT((conditionalLogDensity(reanchored(q, qz.m), Z, W) - got).norm(), 1e-10);
}

TEST(SkewedConditional, EntropyAndMarginalMomentsMatchMonteCarlo) {
  const ConditionalGaussian q = shapedConditional();
  const FullStandard qz = someQz();
  std::mt19937_64 rng(22);
  const Eigen::Index n = 400000;
  const Eigen::MatrixXd Z = reparamDraws(qz.m, reparamRoot(qz), standardNormals(2, n, rng));
  const Eigen::MatrixXd W = conditionalDraws(q, Z, standardNormals(3, n, rng));
  const double nd = static_cast<double>(n);

  // E over q(z) of H(q(w | z)) is its value at z = m (anchor there first).
  const Eigen::VectorXd minusLog = -conditionalLogDensity(q, Z, W);
  const double entropySe = std::sqrt((minusLog.array() - minusLog.mean()).square().sum() / (nd - 1.0) / nd);
  EXPECT_NEAR(minusLog.mean(), conditionalEntropy(reanchored(q, qz.m)), 5.0 * entropySe);

  Eigen::MatrixXd X(5, n);
  X << Z, W;
  const Eigen::VectorXd mean = X.rowwise().mean();
  const Eigen::MatrixXd centred = X.colwise() - mean;
  const Eigen::MatrixXd cov = centred * centred.transpose() / (nd - 1.0);
  const LocalMoments mo = marginalMoments(q, qz.m, qz.S);
  for (Eigen::Index i = 0; i < 3; ++i) {
    EXPECT_NEAR(mean[2 + i], mo.mean[i], 5.0 * std::sqrt(cov(2 + i, 2 + i) / nd)) << i;
    for (Eigen::Index j = 0; j < 5; ++j) {
      // The standard error of a sample covariance, from the draws' fourth moments.
      const Eigen::ArrayXd prod = centred.row(2 + i).array() * centred.row(j).array();
      const double se = std::sqrt((prod - prod.mean()).square().sum() / (nd - 1.0) / nd);
      const double want = j < 2 ? mo.crossGlobal(i, j) : mo.covariance(i, j - 2);
      EXPECT_NEAR(cov(2 + i, j), want, 5.0 * se) << i << "," << j;
    }
  }
  EXPECT_LT((marginalVariances(q, qz.m, qz.S) - mo.covariance.diagonal()).norm(), 1e-12);
  EXPECT_LT((marginalMean(q, qz.m, qz.S) - mo.mean).norm(), 1e-12);
  const LocalMoments diag = marginalMomentsDiagonal(q, qz.m, qz.S.diagonal());
  const LocalMoments dense = marginalMoments(q, qz.m, Eigen::MatrixXd(qz.S.diagonal().asDiagonal()));
  EXPECT_LT((diag.covariance - dense.covariance).norm(), 1e-12);
  EXPECT_LT((marginalVariancesDiagonal(q, qz.m, qz.S.diagonal()) - diag.covariance.diagonal()).norm(), 1e-12);
  EXPECT_LT((marginalMeanDiagonal(q, qz.m, qz.S.diagonal()) - dense.mean).norm(), 1e-12);
}

}  // namespace
}  // namespace pvi::test
