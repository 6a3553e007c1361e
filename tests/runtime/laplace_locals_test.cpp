// Laplace-proposed locals (estimation/LaplaceLocals.hpp and EstimationOptions::laplaceLocals):
// Newton's mode and curvature of a partition's locals at each z, the proposal of the importance-
// weighted term.
//
// Independent references:
//   - a Gaussian log density, whose mode and covariance are known;
//   - a logistic likelihood with a normal prior: the gradient (exact, from the function itself)
//     vanishes at the mode, and the covariance is the inverse of a central-difference Hessian
//     taken here; the proposal's log density against Eigen's Cholesky of that covariance;
//   - the Gaussian random-effects factor, where p(w | z, y) is Gaussian: every weight is then
//     p(y | z) itself, whatever q(w | z) Newton starts from, so each draw's term is log p(y | z)
//     = f(z, w) - log p(w | z, y) at any w, and gradZ and crossZ estimate Fisher's identity:
//     against central finite differences of that log p(y | z) over z, within 5 standard errors.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <numbers>
#include <random>

#include "PviTestSupport.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/estimation/LaplaceLocals.hpp"
#include "runtime/families/Gaussian.hpp"

namespace pvi::test {
namespace {

double gaussianLogDensity(const Eigen::VectorXd& w, const Eigen::VectorXd& mean, const Eigen::MatrixXd& cov) {
  const Eigen::LLT<Eigen::MatrixXd> llt(cov);
  const Eigen::VectorXd r = llt.matrixL().solve(w - mean);
  const double logDet = 2.0 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum();
  return -0.5 * r.squaredNorm() - 0.5 * logDet - 0.5 * static_cast<double>(w.size()) * std::log(2.0 * std::numbers::pi);
}

TEST(LaplaceProposal, IsTheGaussianItself) {
  Eigen::Matrix3d A;
  A << 2.0, 0.3, -0.4, 0.1, 1.5, 0.2, -0.3, 0.6, 0.9;
  const Eigen::Matrix3d P = A * A.transpose() + 0.1 * Eigen::Matrix3d::Identity();
  const Eigen::Vector3d mu(1.5, -20.0, 0.25);
  const estimation::LocalDensity f = [&](const double* w, double* g) {
    const Eigen::Vector3d d = Eigen::Map<const Eigen::Vector3d>(w) - mu;
    Eigen::Map<Eigen::Vector3d> grad(g);
    grad = -P * d;
    return -0.5 * d.dot(P * d);
  };
  const estimation::LaplaceProposal p = estimation::laplaceProposal(f, Eigen::Vector3d(8.0, 3.0, -5.0), Eigen::Vector3d::Ones());
  ASSERT_TRUE(p.found);
  // Newton stops where its decrement is below 1e-10: 1e-5 in the posterior's standard units.
  const Eigen::Matrix3d U = P.llt().matrixU();
  EXPECT_LT((U * (p.mode - mu)).norm(), 1e-5);
  const Eigen::MatrixXd cov = p.root * p.root.transpose();
  EXPECT_LT((cov - Eigen::Matrix3d(P.inverse())).norm(), 1e-6 * P.inverse().norm());
  const Eigen::Vector3d xi(0.3, -1.1, 0.7);
  EXPECT_NEAR(estimation::laplaceLogDensity(p, xi), gaussianLogDensity(estimation::laplaceDraw(p, xi), mu, P.inverse()),
              1e-4);
}

TEST(LaplaceProposal, FindsTheModeOfALogisticPosterior) {
  // Two locals (intercept, slope) of a logistic regression with N(0, 1.5^2) priors.
  std::mt19937_64 rng(8);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int n = 25;
  Eigen::VectorXd x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = normal(rng);
    y[i] = normal(rng) < 0.4 + 1.3 * x[i] ? 1.0 : 0.0;
  }
  const estimation::LocalDensity f = [&](const double* w, double* g) {
    double v = -(w[0] * w[0] + w[1] * w[1]) / (2 * 1.5 * 1.5);
    g[0] = -w[0] / (1.5 * 1.5), g[1] = -w[1] / (1.5 * 1.5);
    for (int i = 0; i < n; ++i) {
      const double eta = w[0] + w[1] * x[i];
      const double p = 1.0 / (1.0 + std::exp(-eta));
      v += y[i] * eta - std::log1p(std::exp(eta));
      g[0] += y[i] - p, g[1] += (y[i] - p) * x[i];
    }
    return v;
  };
  const estimation::LaplaceProposal p = estimation::laplaceProposal(f, Eigen::Vector2d(-4.0, 4.0), Eigen::Vector2d::Ones());
  ASSERT_TRUE(p.found);
  // The mode and the curvature there, by plain Newton iterations to machine precision here.
  Eigen::Vector2d mode = p.mode, g;
  Eigen::Matrix2d H;
  const auto hessian = [&](const Eigen::Vector2d& w) {
    const double h = 1e-5;
    for (int k = 0; k < 2; ++k) {
      Eigen::Vector2d up = w, down = w, gu, gd;
      up[k] += h;
      down[k] -= h;
      f(up.data(), gu.data());
      f(down.data(), gd.data());
      H.col(k) = (gu - gd) / (2 * h);
    }
  };
  for (int i = 0; i < 20; ++i) {
    f(mode.data(), g.data());
    hessian(mode);
    mode -= H.ldlt().solve(g);
  }
  f(mode.data(), g.data());
  ASSERT_LT(g.norm(), 1e-10);
  hessian(mode);
  const Eigen::Matrix2d cov = (-H).inverse();
  // A proposal, not an optimiser: Newton stops one step after its decrement fell below 1e-3, so
  // the mode is within 1e-3 of the posterior's sds and the covariance within 1% (it is the
  // curvature at the last iterate but one).
  const Eigen::Matrix2d Uc = Eigen::Matrix2d(-H).llt().matrixU();
  EXPECT_LT((Uc * (p.mode - mode)).norm(), 1e-3);
  EXPECT_LT((p.root * p.root.transpose() - cov).norm(), 1e-2 * cov.norm());
  const Eigen::Vector2d xi(-0.8, 1.9);
  EXPECT_NEAR(estimation::laplaceLogDensity(p, xi),
              gaussianLogDensity(estimation::laplaceDraw(p, xi), p.mode, p.root * p.root.transpose()), 1e-12);
  EXPECT_LT(p.gradientEvaluations, 60);
}

TEST(LaplaceProposal, WithoutANegativeDefiniteHessianUsesTheGivenSds) {
  const estimation::LocalDensity f = [](const double* w, double* g) {  // convex: no maximum
    g[0] = w[0], g[1] = w[1];
    return 0.5 * (w[0] * w[0] + w[1] * w[1]);
  };
  const Eigen::Vector2d start(0.5, -0.25), sd(0.3, 2.0);
  const estimation::LaplaceProposal p = estimation::laplaceProposal(f, start, sd);
  EXPECT_FALSE(p.found);
  EXPECT_EQ(p.mode, Eigen::VectorXd(start));
  EXPECT_LT((p.root - Eigen::MatrixXd(sd.asDiagonal())).norm(), 1e-15);
  EXPECT_NEAR(p.logDetRoot, std::log(0.3 * 2.0), 1e-15);
}

// The random-effects factor's exact conditional p(w | z, y), as a ConditionalGaussian.
ConditionalGaussian exactConditional(const RandomEffectsModel& model) {
  const Eigen::MatrixXd P = model.jointPrecision();
  const Eigen::Matrix2d Pww = P.bottomRightCorner(2, 2), Pwz = P.bottomLeftCorner(2, 2);
  const Eigen::VectorXd mean = model.jointMean();
  ConditionalGaussian q;
  q.coupling = -Pww.inverse() * Pwz;
  q.anchor = mean.head(2);
  q.mean = mean.tail(2);
  const Eigen::Matrix2d Lc = Eigen::Matrix2d(Pww.inverse()).llt().matrixL();
  q.sd = Lc.diagonal();
  q.unitLower = q.sd.cwiseInverse().asDiagonal() * Lc;
  return q;
}

TEST(LaplaceLocals, WeighEachZByItsMarginalLikelihoodAndFollowFishersIdentity) {
  const RandomEffectsModel model(1, 12, 32, 0.5, 0.6);
  const estimation::PartitionLikelihood f(model, 0, {});
  const ConditionalGaussian exact = exactConditional(model);
  const Eigen::Vector2d w0(0.2, -0.4);
  // log p(y | z) = f(z, w) - log p(w | z, y), the same at every w.
  const auto logMarginal = [&](const Eigen::Vector2d& z) {
    const Eigen::MatrixXd Z = z, W = w0;
    return f.evaluate(z.data(), w0.data(), nullptr, nullptr) - conditionalLogDensity(exact, Z, W)[0];
  };
  FullStandard qz{Eigen::Vector2d(0.6, -1.1), (Eigen::Matrix2d() << 0.04, 0.01, 0.01, 0.03).finished()};
  const Eigen::MatrixXd L = reparamRoot(qz);
  ConditionalGaussian start;  // far from p(w | z, y): Newton must find it
  start.mean = Eigen::Vector2d(1.0, 1.0);
  start.coupling = Eigen::MatrixXd::Zero(2, 2);
  start.anchor = qz.m;
  start.sd = Eigen::Vector2d(0.1, 3.0);
  std::mt19937_64 rng(5);
  // Fisher's identity holds in expectation over the K draws of w: K large, and the tolerance is
  // 5 standard errors of grad_z f over p(w | z, y), estimated from exact draws taken here.
  const Eigen::Index n = 3, K = 4096;
  const Eigen::MatrixXd eps = standardNormals(2, n, rng), xi = standardNormals(2, n * K, rng);
  estimation::EstimationOptions o;
  o.preferExact = false;
  o.eps = &eps;
  o.xi = &xi;
  o.innerDraws = K;
  o.laplaceLocals = true;
  std::mt19937_64 unused(0);
  const auto e = estimation::estimateDerivatives<FullGaussian>(f, qz.m, L, &start, o, unused);
  const Eigen::MatrixXd Z = reparamDraws(qz.m, L, eps);
  Eigen::Vector2d gradZ = Eigen::Vector2d::Zero(), gradVar = Eigen::Vector2d::Zero();
  Eigen::Matrix2d cross = Eigen::Matrix2d::Zero(), crossVar = Eigen::Matrix2d::Zero();
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Vector2d z = Z.col(i);
    const double lm = logMarginal(z);
    EXPECT_NEAR(e.drawValues[i], lm, 1e-7 * (1.0 + std::abs(lm))) << "draw " << i;
    Eigen::Vector2d g;
    for (int k = 0; k < 2; ++k) {
      Eigen::Vector2d up = z, down = z;
      up[k] += 1e-5;
      down[k] -= 1e-5;
      g[k] = (logMarginal(up) - logMarginal(down)) / 2e-5;
    }
    // The variance of grad_z f(z, w) over w ~ p(w | z, y).
    const Eigen::MatrixXd Zi = z.replicate(1, K);
    const Eigen::MatrixXd W = conditionalDraws(exact, Zi, standardNormals(2, K, rng));
    Eigen::MatrixXd G(2, K);
    for (Eigen::Index k = 0; k < K; ++k) {
      Eigen::Vector2d gz, gw;
      f.evaluate(z.data(), W.col(k).data(), gz.data(), gw.data());
      G.col(k) = gz;
    }
    const Eigen::Vector2d var =
        (G.colwise() - G.rowwise().mean()).array().square().rowwise().sum() / static_cast<double>(K - 1);
    const double nd = static_cast<double>(n);
    gradZ += g / nd;
    gradVar += var / (static_cast<double>(K) * nd * nd);
    cross += g * eps.col(i).transpose() / nd;
    crossVar += var * eps.col(i).array().square().matrix().transpose() / (static_cast<double>(K) * nd * nd);
  }
  for (int k = 0; k < 2; ++k) EXPECT_NEAR(e.gradZ[k], gradZ[k], 5.0 * std::sqrt(gradVar[k])) << "d/dm_" << k;
  const Eigen::MatrixXd crossZ = e.crossZ;
  for (auto [i, j] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{1, 1}})
    EXPECT_NEAR(crossZ(i, j), cross(i, j), 5.0 * std::sqrt(crossVar(i, j))) << "d/dL_" << i << j;
  // q(w | z) is pulled towards the mode: its mean's gradient is grad_w f at its own mean.
  Eigen::Vector2d meanGrad = Eigen::Vector2d::Zero();
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::Vector2d gz, gw;
    f.evaluate(Z.col(i).data(), start.mean.data(), gz.data(), gw.data());
    meanGrad += gw / static_cast<double>(n);
  }
  EXPECT_LT((e.local.mean - meanGrad).norm(), 1e-9 * (1.0 + meanGrad.norm()));
}

}  // namespace
}  // namespace pvi::test
