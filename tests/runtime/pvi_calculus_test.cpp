// The Gaussian calculus under PVI's optimisers (runtime/families/GaussianCalculus.hpp, Expectations.hpp):
//   - the Fisher product C v equals the directional derivative of grad A (finite differences of
//     the families' gradLogPartition, central, step 1e-6: truncation O(h^2 |A'''|) ~ 1e-12 and
//     rounding ~ eps |mu| / h ~ 1e-10, so 1e-7 relative is a safe bound);
//   - likelihoodNatural of a quadratic f is f's exact Gaussian factor;
//   - the Monte Carlo estimates of E[f], E[grad f], E[g eps^T] and the Stein Hessian are unbiased:
//     each entry is a mean of n iid terms, so it must lie within 5 standard errors (computed from
//     the same draws) of the closed form (two-sided tail 5.7e-7 per check, fixed seed);
//   - the exact path reproduces the closed form and consumes no random numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include "PviTestModels.hpp"
#include "runtime/algorithms/baselines/GlobalVI.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::test {
namespace {
using namespace pvi::estimation;
using namespace pvi::algorithms;

FullStandard someFull() {
  FullStandard q{Eigen::Vector3d(0.3, -1.0, 0.5),
                 (Eigen::Matrix3d() << 1.2, 0.3, -0.2, 0.3, 0.8, 0.1, -0.2, 0.1, 0.5).finished()};
  return q;
}

TEST(PviCalculus, FisherProductIsDirectionalDerivativeOfMeanFull) {
  const FullStandard q = someFull();
  const FullNatural eta = toNatural(q);
  FullNatural v{Eigen::Vector3d(0.4, -0.7, 0.2),
                (Eigen::Matrix3d() << -0.3, 0.1, 0.05, 0.1, 0.2, -0.1, 0.05, -0.1, 0.15).finished()};
  const FullNatural c = fisherProduct(q, v);
  const double h = 1e-6;
  const FullMean plus = gradLogPartition(eta + h * v), minus = gradLogPartition(eta - h * v);
  const Eigen::VectorXd dm = (plus.m - minus.m) / (2 * h);
  const Eigen::MatrixXd dM = (plus.second - minus.second) / (2 * h);
  EXPECT_LT((c.eta1 - dm).norm() / dm.norm(), 1e-7);
  EXPECT_LT((c.eta2 - dM).norm() / dM.norm(), 1e-7);
  EXPECT_EQ(c.eta2, c.eta2.transpose());
}

TEST(PviCalculus, FisherProductIsDirectionalDerivativeOfMeanMeanField) {
  const MeanFieldStandard q{Eigen::Vector3d(0.3, -1.0, 0.5), Eigen::Vector3d(1.2, 0.4, 2.0)};
  const MeanFieldNatural eta = toNatural(q);
  const MeanFieldNatural v{Eigen::Vector3d(0.4, -0.7, 0.2), Eigen::Vector3d(-0.3, 0.2, 0.15)};
  const MeanFieldNatural c = fisherProduct(q, v);
  const double h = 1e-6;
  const MeanFieldMean plus = gradLogPartition(eta + h * v), minus = gradLogPartition(eta - h * v);
  EXPECT_LT((c.eta1 - (plus.m - minus.m) / (2 * h)).norm(), 1e-7 * c.eta1.norm());
  EXPECT_LT((c.eta2 - (plus.second - minus.second) / (2 * h)).norm(), 1e-7 * c.eta2.norm());
}

TEST(PviCalculus, LikelihoodNaturalOfQuadraticIsItsGaussianFactor) {
  // f(z) = -1/2 z^T A z + b^T z: its factor is (b, -A/2) whatever q is.
  const FullStandard q = someFull();
  const Eigen::Matrix3d A = (Eigen::Matrix3d() << 2.0, 0.5, 0.0, 0.5, 1.0, 0.2, 0.0, 0.2, 3.0).finished();
  const Eigen::Vector3d b(1.0, -2.0, 0.5);
  const FullNatural lik = likelihoodNatural(q, b - A * q.m, -A);
  EXPECT_LT((lik.eta1 - b).norm(), 1e-14);
  EXPECT_LT((lik.eta2 + 0.5 * A).norm(), 1e-15);
}

TEST(PviCalculus, MonteCarloExpectationsAreUnbiased) {
  LinearGaussianModel model(20, 3, 1, 11);
  PartitionLikelihood f(model, 0, {});
  const FullStandard q = someFull();
  const Eigen::MatrixXd L = reparamRoot(q);
  const std::size_t n = 20000;
  std::mt19937_64 rng(5);
  const auto est = estimateDerivatives<FullGaussian>(f, q.m, L, nullptr, EstimationOptions{n, false, nullptr}, rng);
  ASSERT_FALSE(est.exact);
  const ExactExpectations exact = *model.partitionExpectations(0, q.m, q.S, {}, {});

  // Per-draw terms again (same stream) for the standard errors of every entry.
  std::mt19937_64 again(5);
  const Eigen::MatrixXd eps = standardNormals(3, static_cast<Eigen::Index>(n), again);
  const Eigen::MatrixXd z = reparamDraws(q.m, L, eps);
  Eigen::MatrixXd gTerms(3, n), steinTerms(9, n), crossTerms(9, n);
  Eigen::VectorXd fTerms(n);
  const Eigen::Matrix3d Linv = L.inverse();
  for (std::size_t i = 0; i < n; ++i) {
    Eigen::VectorXd g(3);
    const Eigen::VectorXd zi = z.col(static_cast<Eigen::Index>(i));
    fTerms(static_cast<Eigen::Index>(i)) = f.evaluate(zi.data(), nullptr, g.data(), nullptr);
    gTerms.col(static_cast<Eigen::Index>(i)) = g;
    const Eigen::Matrix3d cross = g * eps.col(static_cast<Eigen::Index>(i)).transpose();
    crossTerms.col(static_cast<Eigen::Index>(i)) = cross.reshaped();
    const Eigen::Matrix3d stein = Linv.transpose() * cross.transpose();
    steinTerms.col(static_cast<Eigen::Index>(i)) = (0.5 * (stein + stein.transpose())).reshaped();
  }
  auto se = [n](const Eigen::MatrixXd& terms) {
    const Eigen::VectorXd mean = terms.rowwise().mean();
    return Eigen::VectorXd(((terms.colwise() - mean).array().square().rowwise().sum() / (n - 1.0) / n).sqrt());
  };
  const Eigen::VectorXd seF = se(fTerms.transpose()), seG = se(gTerms), seStein = se(steinTerms),
                        seCross = se(crossTerms);
  EXPECT_NEAR(est.value, exact.value, 5 * seF(0));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(est.gradZ(i), exact.gradZ(i), 5 * seG(i)) << i;
  const Eigen::MatrixXd crossExact = exact.hessZ * L;
  for (int k = 0; k < 9; ++k) {
    EXPECT_NEAR(est.hessZ.reshaped()(k), exact.hessZ.reshaped()(k), 5 * seStein(k)) << "stein " << k;
    EXPECT_NEAR(est.crossZ.reshaped()(k), crossExact.reshaped()(k), 5 * seCross(k)) << "cross " << k;
  }
  EXPECT_GT(seStein.maxCoeff(), 0.0);
}

// Far from the mode the mean gradient is large; the raw Stein estimate L^{-T} E[eps g^T] then
// carries noise of size |gbar| / sqrt(n) in every entry (the term gbar epsbar^T), which made
// global VI's full-covariance natural-gradient steps diverge on spambase. The centred estimate
// (centredCross) must stay unbiased over seeds and have a much smaller spread than the raw one.
TEST(PviCalculus, CentredSteinHessianIsUnbiasedAndNotSwampedByTheMeanGradient) {
  LinearGaussianModel model(20, 3, 1, 11);
  PartitionLikelihood f(model, 0, {});
  FullStandard q = someFull();
  q.m.array() += 300.0;  // far from the likelihood's mode: |E[grad f]| is large
  const Eigen::MatrixXd L = reparamRoot(q);
  const ExactExpectations exact = *model.partitionExpectations(0, q.m, q.S, {}, {});
  ASSERT_GT(exact.gradZ.norm(), 100.0 * exact.hessZ.norm()) << "the test needs a large mean gradient";
  constexpr int kSeeds = 400;
  const std::size_t n = 16;
  Eigen::MatrixXd centred(9, kSeeds), raw(9, kSeeds);
  for (int r = 0; r < kSeeds; ++r) {
    std::mt19937_64 rng(1000 + static_cast<std::uint64_t>(r));
    const auto est = estimateDerivatives<FullGaussian>(f, q.m, L, nullptr, EstimationOptions{n, false, nullptr}, rng);
    centred.col(r) = est.hessZ.reshaped();
    raw.col(r) = steinHessian(L, est.crossZ).reshaped();
  }
  const Eigen::VectorXd mean = centred.rowwise().mean();
  const Eigen::VectorXd sd = ((centred.colwise() - mean).array().square().rowwise().sum() / (kSeeds - 1.0)).sqrt();
  const Eigen::VectorXd rawMean = raw.rowwise().mean();
  const Eigen::VectorXd rawSd = ((raw.colwise() - rawMean).array().square().rowwise().sum() / (kSeeds - 1.0)).sqrt();
  // The spread in closed form. f is quadratic, so g_i - gbar = H L (eps_i - epsbar) and the
  // centred cross moment is H L E with E the sample covariance (1 / (n - 1)) of the n draws eps_i;
  // the estimate is sym(L^{-T} E L^T H), linear in E. For (n - 1) E ~ Wishart(I, n - 1),
  // Cov(E_ab, E_cd) = (d_ac d_bd + d_ad d_bc) / (n - 1), so an entry sum_ab C_ab E_ab has variance
  // 2 |sym C|_F^2 / (n - 1), where for entry (i, j) C = (u_i v_j^T + u_j v_i^T) / 2 with u_i the
  // i-th row of L^{-T} and v_j the j-th column of L^T H. The sample sd over R = 400 seeds has a
  // relative standard error of about sqrt((kurtosis - 1) / 4R) <= 0.05 (the kurtosis of a
  // chi-square with 15 degrees of freedom is 3.8), so the measured sd must lie within 25 % (5 of
  // those) of the closed form. This bounds the spread from above by theory, not only relative to
  // the raw estimate: an estimator with the right mean and extra noise fails it.
  const Eigen::MatrixXd H = exact.hessZ;
  const Eigen::MatrixXd U = L.triangularView<Eigen::Lower>().transpose().solve(Eigen::MatrixXd::Identity(3, 3));
  const Eigen::MatrixXd V = L.transpose() * H;
  Eigen::MatrixXd theorySd(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Eigen::MatrixXd C =
          0.5 * (U.row(i).transpose() * V.col(j).transpose() + U.row(j).transpose() * V.col(i).transpose());
      const Eigen::MatrixXd symC = 0.5 * (C + C.transpose());
      theorySd(i, j) = std::sqrt(2.0 * symC.squaredNorm() / (static_cast<double>(n) - 1.0));
    }
  const Eigen::VectorXd spreadRatio = sd.cwiseQuotient(theorySd.reshaped());
  for (int k = 0; k < 9; ++k) {
    EXPECT_NEAR(mean(k), exact.hessZ.reshaped()(k), 5 * sd(k) / std::sqrt(double(kSeeds))) << k;
    EXPECT_LT(sd(k), 0.1 * rawSd(k)) << k;  // the spread is bounded too, not only the mean
    EXPECT_NEAR(spreadRatio(k), 1.0, 0.25) << k << ": sd " << sd(k) << ", closed form " << theorySd.reshaped()(k);
  }
  std::cout << "[measured] Stein Hessian spread far from the mode: centred " << sd.maxCoeff() << ", raw "
            << rawSd.maxCoeff() << "; centred sd / closed form in [" << spreadRatio.minCoeff() << ", "
            << spreadRatio.maxCoeff() << "]\n";
}

TEST(PviCalculus, GlobalVIRefusesAFullCovarianceHessianFromTooFewDraws) {
  LogisticModel model(40, 4, 2, 5);
  GlobalVIOptions o;
  o.method = GlobalVIMethod::NaturalGradient;
  o.iterations = 2;
  o.samples = 4;  // == D
  try {
    runGlobalVI<FullGaussian>(model, {}, o);
    ADD_FAILURE() << "4 draws for a 4 x 4 Hessian were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more than 4 draws"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(runGlobalVI<MeanFieldGaussian>(model, {}, o));  // a diagonal needs no more
  o.samples = 5;
  EXPECT_NO_THROW(runGlobalVI<FullGaussian>(model, {}, o));
}

TEST(PviCalculus, ExactPathUsesClosedFormAndNoRandomNumbers) {
  LinearGaussianModel model(20, 3, 2, 11);
  PartitionLikelihood f(model, 1, {}, &model);
  const FullStandard q = someFull();
  std::mt19937_64 rng(5), untouched(5);
  const auto est = estimateDerivatives<FullGaussian>(f, q, nullptr, EstimationOptions{16, true, nullptr}, rng);
  ASSERT_TRUE(est.exact);
  EXPECT_EQ(rng(), untouched());
  const ExactExpectations exact = *model.partitionExpectations(1, q.m, q.S, {}, {});
  EXPECT_EQ(est.value, exact.value);
  EXPECT_LT((est.hessZ - exact.hessZ).norm(), 1e-15 * exact.hessZ.norm());
  // The mean-field view takes the diagonal.
  const MeanFieldStandard qd{q.m, q.S.diagonal()};
  const auto estMf = estimateDerivatives<MeanFieldGaussian>(f, qd, nullptr, EstimationOptions{16, true, nullptr}, rng);
  EXPECT_EQ(estMf.hessZ, Eigen::VectorXd(exact.hessZ.diagonal()));
}

TEST(PviCalculus, StableFlattenRoundTrips) {
  const FullStable s = toStable(someFull());
  Eigen::VectorXd flat(static_cast<Eigen::Index>(stableSize(s)));
  flattenStable(s, flat);
  FullStable back{Eigen::VectorXd::Zero(3), Eigen::MatrixXd::Zero(3, 3)};
  unflattenStable(flat, back);
  EXPECT_EQ(back.m, s.m);
  EXPECT_EQ(Eigen::MatrixXd(back.logCholesky.triangularView<Eigen::Lower>()),
            Eigen::MatrixXd(s.logCholesky.triangularView<Eigen::Lower>()));
}

}  // namespace
}  // namespace pvi::test
