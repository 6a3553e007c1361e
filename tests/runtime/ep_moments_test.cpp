// What EP's sampled sites make of their draws (runtime/algorithms/ep/): the Stein estimate of
// the tilted moments (SampledSites.hpp) and a partition's q(w | z) from joint draws
// (LocalsFromDraws.hpp), both against closed forms.
//
// The Stein test's tilted distribution is Gaussian: cavity N(m_c, S_c) times a Gaussian site
// exp(-(z - a)^T L (z - a) / 2), so the tilted moments are exact and the draws independent.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <random>

#include "runtime/algorithms/ep/LocalsFromDraws.hpp"
#include "runtime/algorithms/ep/SampledSites.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::algorithms::ep {
namespace {

Eigen::MatrixXd standardNormals(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  Eigen::MatrixXd x(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) x(i, j) = normal(rng);
  return x;
}

struct GaussianTilted {
  FullNatural cavity;
  Eigen::MatrixXd siteLambda;  // L
  Eigen::VectorXd siteCentre;  // a
  FullStandard tilted;
};

// A cavity N(m_c, S_c) and a site whose precision is `share` times the cavity's.
GaussianTilted gaussianTilted(double share) {
  Eigen::Matrix3d sc;
  sc << 2.0, 0.6, -0.3, 0.6, 1.0, 0.2, -0.3, 0.2, 0.5;
  const FullStandard cavity{Eigen::Vector3d(0.5, -1.0, 2.0), sc};
  GaussianTilted g;
  g.cavity = toNatural(cavity);
  g.siteLambda = share * sc.inverse();
  g.siteCentre = Eigen::Vector3d(1.0, 0.0, 1.5);
  FullNatural t = g.cavity;
  t.eta1 += g.siteLambda * g.siteCentre;
  t.eta2 -= 0.5 * g.siteLambda;
  g.tilted = toStandard(t);
  return g;
}

// n exact draws of the tilted distribution and their site gradients -L (z - a).
std::pair<Eigen::MatrixXd, Eigen::MatrixXd> drawsWithGradients(const GaussianTilted& g, Eigen::Index n,
                                                               std::mt19937_64& rng) {
  const Eigen::MatrixXd chol = Eigen::LLT<Eigen::MatrixXd>(g.tilted.S).matrixL();
  const Eigen::MatrixXd z = (chol * standardNormals(3, n, rng)).colwise() + g.tilted.m;
  const Eigen::MatrixXd grad = -g.siteLambda * (z.colwise() - g.siteCentre);
  return {z, grad};
}

FullMean drawMoments(const Eigen::MatrixXd& z) {
  return FullMean{z.rowwise().mean(), z * z.transpose() / static_cast<double>(z.cols())};
}

// Over many batches of 4 draws: the Stein estimate's average is the exact E[z] and E[z z^T]
// (within 5 Monte Carlo standard errors, entry by entry), as the draws' own moments are; its
// spread is a small fraction of theirs when the site is a small part of the tilted distribution.
TEST(SteinMoments, UnbiasedAndFarLessNoisyForAWeakSite) {
  for (const double share : {0.05, 1.0}) {
    const GaussianTilted g = gaussianTilted(share);
    const FullMean exact = toMean(g.tilted);
    std::mt19937_64 rng(7);
    const int batches = 20000;
    Eigen::VectorXd sumM = Eigen::VectorXd::Zero(3), sumM2 = Eigen::VectorXd::Zero(3);
    Eigen::MatrixXd sumS = Eigen::MatrixXd::Zero(3, 3), sumS2 = Eigen::MatrixXd::Zero(3, 3);
    double steinSpread = 0.0, drawSpread = 0.0;
    for (int b = 0; b < batches; ++b) {
      const auto [z, grad] = drawsWithGradients(g, 4, rng);
      const FullMean s = steinMoments(g.cavity, 1.0, z, grad);
      const FullMean d = drawMoments(z);
      sumM += s.m;
      sumM2 += s.m.cwiseProduct(s.m);
      sumS += s.second;
      sumS2 += s.second.cwiseProduct(s.second);
      steinSpread += (s.m - exact.m).squaredNorm() + (s.second - exact.second).squaredNorm();
      drawSpread += (d.m - exact.m).squaredNorm() + (d.second - exact.second).squaredNorm();
    }
    const double n = batches;
    for (Eigen::Index i = 0; i < 3; ++i) {
      const double se = std::sqrt((sumM2(i) / n - std::pow(sumM(i) / n, 2)) / n);
      EXPECT_NEAR(sumM(i) / n, exact.m(i), 5.0 * se + 1e-12) << "share " << share << ", mean " << i;
      for (Eigen::Index j = 0; j < 3; ++j) {
        const double seS = std::sqrt((sumS2(i, j) / n - std::pow(sumS(i, j) / n, 2)) / n);
        EXPECT_NEAR(sumS(i, j) / n, exact.second(i, j), 5.0 * seS + 1e-12) << "share " << share << ", " << i << j;
      }
    }
    std::cout << "[measured] site share " << share << ": Stein / draws mean squared error " << steinSpread / drawSpread
              << "\n";
    // For a Gaussian site the Stein noise is the draws' scaled by the site's share of the
    // precision (about share^2 in squared error).
    if (share < 0.1) {
      EXPECT_LT(steinSpread / drawSpread, 0.02);
    }
  }
}

// The power beta divides the site's term: the estimate with gradients of f and power beta equals
// the one with gradients of f / beta and power 1.
TEST(SteinMoments, PowerDividesTheSiteTerm) {
  const GaussianTilted g = gaussianTilted(0.3);
  std::mt19937_64 rng(3);
  const auto [z, grad] = drawsWithGradients(g, 5, rng);
  const FullMean a = steinMoments(g.cavity, 2.0, z, grad);
  const FullMean b = steinMoments(g.cavity, 1.0, z, grad / 2.0);
  EXPECT_LT((a.m - b.m).norm(), 1e-12);
  EXPECT_LT((a.second - b.second).norm(), 1e-12);
}

// Joint draws of (z, w) from a Gaussian with w | z = N(mean + C (z - m), R) give back C, the
// conditional sds and L, within their Monte Carlo error for 40,000 draws.
// For a Gaussian (z, w) whose z marginal is the reference q and whose w given z follows B, the
// reference estimate is exact from any points at all: z + S G = m_z and the second moment is S,
// with G = grad_z log p + B' grad_w log p. A sign slip in the cross term or the wrong B would miss.
TEST(ReferenceMoments, ExactForAGaussianThatFollowsTheReference) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> normal;
  const Eigen::Index d = 3, dw = 5;
  Eigen::MatrixXd a(d + dw, d + dw);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
  const Eigen::MatrixXd sigma = a * a.transpose() + Eigen::MatrixXd::Identity(d + dw, d + dw);
  Eigen::VectorXd mu(d + dw);
  for (Eigen::Index i = 0; i < mu.size(); ++i) mu[i] = normal(rng);
  const Eigen::MatrixXd precision = sigma.inverse();
  const FullStandard q{mu.head(d), sigma.topLeftCorner(d, d)};
  const Eigen::MatrixXd b = sigma.bottomLeftCorner(dw, d) * q.S.inverse();  // w's regression on z
  Eigen::MatrixXd x(d + dw, 7);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = 3.0 * normal(rng);  // any points
  const Eigen::MatrixXd grad = -precision * (x.colwise() - mu);
  const Eigen::MatrixXd projected = grad.topRows(d) + b.transpose() * grad.bottomRows(dw);
  const FullMean m = referenceMoments(q, x.topRows(d), projected);
  const FullMean exact = toMean(q);
  EXPECT_LT((m.m - exact.m).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LT((m.second - exact.second).cwiseAbs().maxCoeff(), 1e-10);
}

TEST(LocalsFromDraws, RecoversTheGaussianConditional) {
  const Eigen::Vector2d m(1.0, -2.0);
  Eigen::Matrix2d S;
  S << 1.0, 0.3, 0.3, 0.5;
  Eigen::MatrixXd C(3, 2);
  C << 0.5, -1.0, 0.0, 2.0, 1.5, 0.3;
  Eigen::Matrix3d R;
  R << 0.4, 0.1, 0.0, 0.1, 0.3, -0.05, 0.0, -0.05, 0.2;
  const Eigen::Vector3d wMean(0.1, 0.2, -0.3);
  std::mt19937_64 rng(11);
  const Eigen::Index n = 40000;
  const Eigen::MatrixXd z =
      (Eigen::MatrixXd(Eigen::LLT<Eigen::Matrix2d>(S).matrixL()) * standardNormals(2, n, rng)).colwise() + m;
  const Eigen::MatrixXd w = ((C * (z.colwise() - m)).colwise() + wMean) +
                            Eigen::MatrixXd(Eigen::LLT<Eigen::Matrix3d>(R).matrixL()) * standardNormals(3, n, rng);
  Eigen::MatrixXd joint(5, n);
  joint << z, w;
  const ConditionalGaussian q = conditionalFromDraws(joint, 2, true);
  ASSERT_TRUE(check(q).ok()) << check(q).reason;
  EXPECT_LT((q.coupling - C).cwiseAbs().maxCoeff(), 0.03);
  EXPECT_LT((conditionalMean(q, m) - wMean).cwiseAbs().maxCoeff(), 0.02);
  EXPECT_LT((conditionalCovariance(q) - R).cwiseAbs().maxCoeff(), 0.01);
  // Without correlations: the same C, R's diagonal.
  const ConditionalGaussian d = conditionalFromDraws(joint, 2, false);
  EXPECT_FALSE(d.correlated());
  EXPECT_LT((d.sd.cwiseProduct(d.sd) - R.diagonal()).cwiseAbs().maxCoeff(), 0.01);
}

TEST(LocalsFromDraws, RefusesFewerDrawsThanDimensions) {
  std::mt19937_64 rng(1);
  const Eigen::MatrixXd joint = standardNormals(5, 5, rng);
  try {
    conditionalFromDraws(joint, 2, true);
    FAIL() << "five draws of five dimensions were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more draws (5) than dimensions (5)"), std::string::npos) << e.what();
  }
}


// Three estimators of a drifting target with noise sds 1, 0.5 and 2 in 6 coordinates: after its
// warm-up the record picks the second, whose moving variance is near 6 x 0.25 (the drift adds
// the same, about 0.2, to every estimator's); before it, the first. An estimator that never gave
// an estimate is never picked.
TEST(EstimatorNoise, PicksTheEstimatorWithTheLeastSpread) {
  EstimatorNoise noise(3, 0.05, 3);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  const double sds[3] = {1.0, 0.5, 2.0};
  for (int t = 0; t < 400; ++t) {
    const Eigen::VectorXd target = Eigen::VectorXd::Constant(6, 0.01 * t);
    for (std::size_t k = 0; k < 3; ++k) {
      Eigen::VectorXd x = target;
      for (Eigen::Index j = 0; j < x.size(); ++j) x(j) += sds[k] * normal(rng);
      noise.add(k, x);
    }
    if (t < 3) {  // still warming up
      EXPECT_EQ(noise.choice(), 0u) << "update " << t;
    }
    noise.endUpdate();
  }
  EXPECT_EQ(noise.choice(), 1u);
  // The moving variance of 20 effective updates: 6 sd^2 within a loose factor of its noise.
  EXPECT_NEAR(noise.variance(1), 6 * 0.25, 0.8);
  EXPECT_NEAR(noise.variance(2), 6 * 4.0, 12.0);
  EstimatorNoise partial(3, 0.05, 0);
  partial.add(1, Eigen::VectorXd::Ones(2));  // estimator 0 never reported
  partial.add(1, Eigen::VectorXd::Zero(2));
  partial.endUpdate();
  EXPECT_EQ(partial.choice(), 1u);
  EXPECT_THROW(EstimatorNoise(0), std::invalid_argument);
  EXPECT_THROW(EstimatorNoise(3, 1.5), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::algorithms::ep
