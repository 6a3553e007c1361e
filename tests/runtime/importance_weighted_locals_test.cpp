// Importance-weighted locals (estimation/Expectations.hpp, EstimationOptions::innerDraws): each
// draw of z gets K draws of w, and a partition's term is F(z) = log mean_k exp(f(z, w_k) -
// log q(w_k | z)).
//
// Independent references:
//   - where q(w | z) is the exact conditional p(w | z, y) of the Gaussian random-effects factor,
//     every l_k is log p(y | z) itself: each draw's term equals f - log q at a fresh w drawn and
//     evaluated here (families' conditionalDraws and conditionalLogDensity), and the gradient
//     over q(w | z) vanishes draw by draw;
//   - with the draws fixed, F is a smooth function of q(z)'s m and L: central finite differences
//     of the returned value against gradZ and crossZ;
//   - the doubly reparameterised gradient over q(w | z)'s parameters is unbiased: against the
//     finite differences of each replicate's own F at its fixed draws (the plain reparameterised
//     gradient, also unbiased), paired over replicates, within 5 standard errors.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "PviTestSupport.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/Gaussian.hpp"

namespace pvi::test {
namespace {

FullStandard someQz(unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Matrix2d A;
  A << n(rng), n(rng), n(rng), n(rng);
  return {Eigen::Vector2d(0.7 + 0.2 * n(rng), -1.2 + 0.2 * n(rng)),
          0.05 * A * A.transpose() + 0.02 * Eigen::Matrix2d::Identity()};
}

// A conditional near the random-effects factor's posterior but not equal to it, anchored at m.
ConditionalGaussian someConditional(const Eigen::VectorXd& m, bool scaled) {
  ConditionalGaussian q;
  q.mean = Eigen::Vector2d(0.1, -0.2);
  q.coupling = (Eigen::MatrixXd(2, 2) << -0.6, 0.1, 0.2, -0.5).finished();
  q.anchor = m;
  q.sd = Eigen::Vector2d(0.25, 0.3);
  q.unitLower = (Eigen::MatrixXd(2, 2) << 1.0, 0.0, 0.3, 1.0).finished();
  if (scaled) q.scaleCoupling = (Eigen::MatrixXd(2, 2) << 0.4, -0.2, 0.1, 0.3).finished();
  return q;
}

estimation::ExpectedDerivatives<FullGaussian> weighted(const estimation::LocalLikelihood& f, const Eigen::VectorXd& m,
                                                       const Eigen::MatrixXd& L, const ConditionalGaussian& qw,
                                                       const Eigen::MatrixXd& eps, const Eigen::MatrixXd& xi,
                                                       std::size_t K) {
  estimation::EstimationOptions o;
  o.preferExact = false;
  o.eps = &eps;
  o.xi = &xi;
  o.innerDraws = K;
  std::mt19937_64 unused(0);
  return estimation::estimateDerivatives<FullGaussian>(f, m, L, &qw, o, unused);
}

TEST(ImportanceWeightedLocals, AreTheMarginalLikelihoodWhereQIsTheExactConditional) {
  const RandomEffectsModel model(1, 12, 32, 0.5, 0.6);
  const estimation::PartitionLikelihood f(model, 0, {});
  const Eigen::MatrixXd P = model.jointPrecision();
  const Eigen::Matrix2d Pww = P.bottomRightCorner(2, 2), Pwz = P.bottomLeftCorner(2, 2);
  const Eigen::VectorXd mean = model.jointMean();
  ConditionalGaussian qw;  // p(w | z, y): Gaussian with C = -Pww^-1 Pwz, covariance Pww^-1
  qw.coupling = -Pww.inverse() * Pwz;
  qw.anchor = mean.head(2);
  qw.mean = mean.tail(2);
  const Eigen::Matrix2d Lc = Eigen::Matrix2d(Pww.inverse()).llt().matrixL();
  qw.sd = Lc.diagonal();
  qw.unitLower = qw.sd.cwiseInverse().asDiagonal() * Lc;
  const FullStandard qz = someQz(3);
  const Eigen::MatrixXd L = reparamRoot(qz);
  std::mt19937_64 rng(5);
  const Eigen::Index n = 6, K = 4;
  const Eigen::MatrixXd eps = standardNormals(2, n, rng), xi = standardNormals(2, n * K, rng);
  const auto e = weighted(f, qz.m, L, qw, eps, xi, K);
  ASSERT_EQ(e.drawValues.size(), n);
  const Eigen::MatrixXd Z = reparamDraws(qz.m, L, eps);
  const Eigen::MatrixXd W = conditionalDraws(qw, Z, standardNormals(2, n, rng));  // fresh w, one per z
  const Eigen::VectorXd logQ = conditionalLogDensity(qw, Z, W);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double l = f.evaluate(Z.col(i).data(), W.col(i).data(), nullptr, nullptr) - logQ[i];
    EXPECT_NEAR(e.drawValues[i], l, 1e-9 * (1.0 + std::abs(l))) << "draw " << i;
  }
  EXPECT_LT(e.local.mean.norm(), 1e-9);
  EXPECT_LT(e.local.coupling.norm(), 1e-9);
  EXPECT_LT(e.local.sd.norm(), 1e-9);
  EXPECT_LT(e.local.unitLower.norm(), 1e-9);
}

// One partition of the random-effects model, q(z) and a conditional near (not at) its posterior.
struct PartitionCase {
  PartitionCase(unsigned modelSeed, unsigned qzSeed, bool scaled)
      : model(1, 12, modelSeed, 0.5, 0.6),
        f(model, 0, {}),
        qz(someQz(qzSeed)),
        L(reparamRoot(qz)),
        qw(someConditional(qz.m, scaled)) {}
  const RandomEffectsModel model;
  const estimation::PartitionLikelihood f;
  const FullStandard qz;
  const Eigen::MatrixXd L;
  const ConditionalGaussian qw;
};

class ImportanceWeightedGradient : public ::testing::TestWithParam<bool> {};

TEST_P(ImportanceWeightedGradient, OverQzIsTheBoundsDerivativeAtFixedDraws) {
  const PartitionCase t(33, 4, GetParam());
  const auto& [model, f, qz, L, qw] = t;
  std::mt19937_64 rng(6);
  const Eigen::Index n = 5, K = 3;
  const Eigen::MatrixXd eps = standardNormals(2, n, rng), xi = standardNormals(2, n * K, rng);
  const auto e = weighted(f, qz.m, L, qw, eps, xi, K);
  // The bound at (m, L), q(w | z) parameterised at m (its mean is E[w | z = m] wherever m goes).
  const auto bound = [&](const Eigen::VectorXd& m, const Eigen::MatrixXd& Lz) {
    ConditionalGaussian c = qw;
    c.anchor = m;
    return weighted(f, m, Lz, c, eps, xi, K).value;
  };
  const double h = 1e-6;
  for (int i = 0; i < 2; ++i) {
    Eigen::VectorXd up = qz.m, down = qz.m;
    up[i] += h;
    down[i] -= h;
    const double fd = (bound(up, L) - bound(down, L)) / (2 * h);
    EXPECT_NEAR(e.gradZ[i], fd, 1e-6 * (1.0 + std::abs(fd))) << "d/dm_" << i;
  }
  for (auto [i, j] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{1, 1}}) {
    Eigen::MatrixXd up = L, down = L;
    up(i, j) += h;
    down(i, j) -= h;
    const double fd = (bound(qz.m, up) - bound(qz.m, down)) / (2 * h);
    EXPECT_NEAR(e.crossZ(i, j), fd, 1e-6 * (1.0 + std::abs(fd))) << "d/dL_" << i << j;
  }
}

TEST_P(ImportanceWeightedGradient, OverQwIsUnbiased) {
  const bool scaled = GetParam();
  const PartitionCase t(34, 7, scaled);
  const auto& [model, f, qz, L, qw] = t;
  // Parameters checked: mean, coupling, sd, unitLower(1, 0) and, scaled, the scale coupling.
  using Field = double& (*)(ConditionalGaussian&);
  std::vector<std::pair<const char*, Field>> fields = {
      {"mean 0", [](ConditionalGaussian& c) -> double& { return c.mean[0]; }},
      {"mean 1", [](ConditionalGaussian& c) -> double& { return c.mean[1]; }},
      {"coupling 01", [](ConditionalGaussian& c) -> double& { return c.coupling(0, 1); }},
      {"coupling 10", [](ConditionalGaussian& c) -> double& { return c.coupling(1, 0); }},
      {"sd 0", [](ConditionalGaussian& c) -> double& { return c.sd[0]; }},
      {"sd 1", [](ConditionalGaussian& c) -> double& { return c.sd[1]; }},
      {"unitLower 10", [](ConditionalGaussian& c) -> double& { return c.unitLower(1, 0); }}};
  if (scaled) {
    fields.push_back({"scaleCoupling 00", [](ConditionalGaussian& c) -> double& { return c.scaleCoupling(0, 0); }});
    fields.push_back({"scaleCoupling 11", [](ConditionalGaussian& c) -> double& { return c.scaleCoupling(1, 1); }});
  }
  const auto gradientOf = [&](const estimation::LocalGradient& g, std::size_t k) {
    switch (k) {
      case 0: return g.mean[0];
      case 1: return g.mean[1];
      case 2: return g.coupling(0, 1);
      case 3: return g.coupling(1, 0);
      case 4: return g.sd[0];
      case 5: return g.sd[1];
      case 6: return g.unitLower(1, 0);
      case 7: return g.scaleCoupling(0, 0);
      default: return g.scaleCoupling(1, 1);
    }
  };
  constexpr int R = 60;
  const Eigen::Index n = 200, K = 4;
  Eigen::MatrixXd diff(R, static_cast<Eigen::Index>(fields.size()));
  Eigen::VectorXd scale = Eigen::VectorXd::Zero(diff.cols());
  for (int r = 0; r < R; ++r) {
    std::mt19937_64 rng(200 + static_cast<std::uint64_t>(r));
    const Eigen::MatrixXd eps = standardNormals(2, n, rng), xi = standardNormals(2, n * K, rng);
    const auto e = weighted(f, qz.m, L, qw, eps, xi, K);
    const double h = 1e-6;
    for (std::size_t k = 0; k < fields.size(); ++k) {
      ConditionalGaussian up = qw, down = qw;
      fields[k].second(up) += h;
      fields[k].second(down) -= h;
      const double fd =
          (weighted(f, qz.m, L, up, eps, xi, K).value - weighted(f, qz.m, L, down, eps, xi, K).value) / (2 * h);
      diff(r, static_cast<Eigen::Index>(k)) = gradientOf(e.local, k) - fd;
      scale[static_cast<Eigen::Index>(k)] += std::abs(fd) / R;
    }
  }
  for (Eigen::Index k = 0; k < diff.cols(); ++k) {
    const double mean = diff.col(k).mean();
    const double se = std::sqrt((diff.col(k).array() - mean).square().sum() / (R - 1) / R);
    std::cout << "[measured] " << fields[static_cast<std::size_t>(k)].first << ": doubly reparameterised minus plain "
              << mean << " +- " << se << " (gradient about " << scale[k] << ")\n";
    EXPECT_LT(std::abs(mean), 5.0 * se + 1e-9) << fields[static_cast<std::size_t>(k)].first;
    EXPECT_GT(scale[k], 10.0 * se) << "the check is too noisy to mean anything: "
                                   << fields[static_cast<std::size_t>(k)].first;
  }
}

INSTANTIATE_TEST_SUITE_P(PlainAndScaled, ImportanceWeightedGradient, ::testing::Bool());

}  // namespace
}  // namespace pvi::test
