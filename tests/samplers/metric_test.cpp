// The conditional metric (a dense block over z, w given z by a regression with independent
// residuals) against the dense metric holding the same M^{-1} = L L', written out here; then
// NUTS with it on a Gaussian of that shape, whose moments it must reproduce.
#include <gtest/gtest.h>

#include <stdexcept>

#include "SamplerTestSupport.hpp"
#include "runtime/families/StandardNormal.hpp"
#include "runtime/samplers/nuts/Metric.hpp"
#include "runtime/samplers/nuts/Nuts.hpp"

namespace pvi::samplers {
namespace {

struct ConditionalBlocks {
  Eigen::MatrixXd zCovariance, regression;
  Eigen::VectorXd residual;
  // L = [[Lz, 0], [B Lz, diag(sqrt(residual))]], built densely.
  Eigen::MatrixXd lower() const {
    const Eigen::Index d = zCovariance.rows(), dw = residual.size();
    const Eigen::MatrixXd lz = zCovariance.llt().matrixL();
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(d + dw, d + dw);
    l.topLeftCorner(d, d) = lz;
    l.bottomLeftCorner(dw, d) = regression * lz;
    l.bottomRightCorner(dw, dw) = residual.cwiseSqrt().asDiagonal();
    return l;
  }
};

ConditionalBlocks randomBlocks(Eigen::Index d, Eigen::Index dw, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  ConditionalBlocks b{testing::randomCovariance(d, seed), Eigen::MatrixXd(dw, d), Eigen::VectorXd(dw)};
  for (Eigen::Index i = 0; i < b.regression.size(); ++i) b.regression.data()[i] = normal(rng);
  for (Eigen::Index i = 0; i < dw; ++i) b.residual[i] = std::exp(normal(rng));
  return b;
}

TEST(ConditionalMetric, VelocityAndDiagonalEqualTheDenseMetricsOfTheSameInverse) {
  const ConditionalBlocks b = randomBlocks(4, 9, 3);
  const Eigen::MatrixXd l = b.lower();
  EuclideanMetric conditional(13, MetricKind::Conditional), dense(13, MetricKind::Dense);
  conditional.setInverseConditional(b.zCovariance, b.regression, b.residual);
  dense.setInverseDense(l * l.transpose());
  std::mt19937_64 rng(7);
  for (int k = 0; k < 5; ++k) {
    Eigen::VectorXd p(13), v1(13), v2(13);
    fillStandardNormals(p.data(), p.size(), rng);
    conditional.velocity(p, v1);
    dense.velocity(p, v2);
    EXPECT_LT((v1 - v2).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + v2.cwiseAbs().maxCoeff()));
  }
  EXPECT_LT((conditional.inverseDiagonal() - (l * l.transpose()).diagonal()).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(ConditionalMetric, MomentumIsTheTransposedSolveOfTheSameNormals) {
  // p ~ N(0, M) with M = (L L')^{-1}: p = L^{-T} e, so L' p must give back the normals e.
  const ConditionalBlocks b = randomBlocks(3, 6, 11);
  const Eigen::MatrixXd l = b.lower();
  EuclideanMetric metric(9, MetricKind::Conditional);
  metric.setInverseConditional(b.zCovariance, b.regression, b.residual);
  std::mt19937_64 a(5), same(5);
  for (int k = 0; k < 5; ++k) {
    Eigen::VectorXd p(9), e(9);
    metric.sampleMomentum(a, p);
    fillStandardNormals(e.data(), e.size(), same);
    EXPECT_LT((l.transpose() * p - e).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + e.cwiseAbs().maxCoeff()));
  }
}

TEST(ConditionalMetric, RefusesBlocksThatDoNotFitOrAreNotPositive) {
  const ConditionalBlocks b = randomBlocks(2, 3, 1);
  EuclideanMetric metric(5, MetricKind::Conditional);
  EXPECT_THROW(metric.setInverseConditional(b.zCovariance, b.regression.topRows(2), b.residual),
               std::invalid_argument);
  EXPECT_THROW(metric.setInverseConditional(-b.zCovariance, b.regression, b.residual), std::invalid_argument);
  EXPECT_THROW(metric.setInverseConditional(b.zCovariance, b.regression, -b.residual), std::invalid_argument);
  EuclideanMetric diagonal(5, MetricKind::Diagonal);
  EXPECT_THROW(diagonal.setInverseConditional(b.zCovariance, b.regression, b.residual), std::logic_error);
}

// NUTS with the conditional metric of a Gaussian of exactly that shape (2 globals, 40 locals
// regressed on them, scales over two orders of magnitude) and a fixed step size: the draws'
// means and variances lie within 4 Monte Carlo standard errors of the truth.
TEST(ConditionalMetric, NutsWithItLeavesAHierarchicalGaussianInvariant) {
  const ConditionalBlocks b = randomBlocks(2, 40, 21);
  const Eigen::MatrixXd l = b.lower();
  const testing::GaussianTarget g(Eigen::VectorXd::LinSpaced(42, -1.0, 1.0), l * l.transpose());
  EuclideanMetric metric(42, MetricKind::Conditional);
  // The metric from blocks 20% off the target's: a metric is never exact.
  metric.setInverseConditional(1.2 * b.zCovariance, 0.8 * b.regression, 1.2 * b.residual);
  Nuts nuts(g.target, NutsOptions{});
  PhasePoint point(42);
  point.q = g.mu;
  nuts.evaluate(point);
  std::mt19937_64 rng(9);
  const Eigen::Index n = 20000;
  Eigen::MatrixXd draws(n, 42);
  for (Eigen::Index k = 0; k < n; ++k) {
    nuts.transition(point, metric, 0.5, rng);
    draws.row(k) = point.q.transpose();
  }
  for (Eigen::Index c : {0, 1, 2, 41}) {
    const Eigen::MatrixXd x = draws.col(c);
    EXPECT_LT(testing::mcseDistance(x, g.mu[c]), 4.0) << "mean of coordinate " << c;
    const Eigen::MatrixXd squared = (x.array() - g.mu[c]).square().matrix();
    EXPECT_LT(testing::mcseDistance(squared, g.sigma(c, c)), 4.0) << "variance of coordinate " << c;
  }
}

}  // namespace
}  // namespace pvi::samplers
