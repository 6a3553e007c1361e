// The Wasserstein-2 barycentre of Gaussians (families/WassersteinBarycentre.hpp) against closed
// forms: one dimension (the sds averaged), commuting covariances (the square roots of the
// eigenvalues averaged in the common eigenbasis), the diagonal family's formula; and for random
// full covariances, the defining fixed point S = J^-1 sum_j (S^1/2 S_j S^1/2)^1/2 to 1e-10.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <iostream>
#include <random>

#include "runtime/families/Gaussian.hpp"

namespace pvi {
namespace {

Eigen::MatrixXd sqrtm(const Eigen::MatrixXd& A) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> e(A);
  return e.eigenvectors() * e.eigenvalues().cwiseSqrt().asDiagonal() * e.eigenvectors().transpose();
}

TEST(WassersteinBarycentre, OneDimensionAveragesTheSds) {
  const std::vector<double> means = {1.0, -2.0, 4.0}, sds = {0.5, 2.0, 1.25};
  std::vector<FullStandard> full;
  std::vector<MeanFieldStandard> diag;
  for (int j = 0; j < 3; ++j) {
    full.push_back({Eigen::VectorXd::Constant(1, means[j]), Eigen::MatrixXd::Constant(1, 1, sds[j] * sds[j])});
    diag.push_back({Eigen::VectorXd::Constant(1, means[j]), Eigen::VectorXd::Constant(1, sds[j] * sds[j])});
  }
  const double sd = (0.5 + 2.0 + 1.25) / 3.0;
  const FullStandard b = wassersteinBarycentre(full);
  EXPECT_NEAR(b.m[0], 1.0, 1e-15);
  EXPECT_NEAR(b.S(0, 0), sd * sd, 1e-12);
  const MeanFieldStandard d = wassersteinBarycentre(diag);
  EXPECT_NEAR(d.m[0], 1.0, 1e-15);
  EXPECT_NEAR(d.var[0], sd * sd, 1e-15);
}

TEST(WassersteinBarycentre, CommutingCovariancesAverageTheirRootsInTheCommonBasis) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> n(0.0, 1.0);
  const Eigen::MatrixXd U =
      Eigen::HouseholderQR<Eigen::MatrixXd>(Eigen::MatrixXd::NullaryExpr(4, 4, [&] { return n(rng); })).householderQ();
  std::vector<FullStandard> qs;
  Eigen::VectorXd rootMean = Eigen::VectorXd::Zero(4);
  for (int j = 0; j < 3; ++j) {
    const Eigen::VectorXd lambda = Eigen::VectorXd::NullaryExpr(4, [&] { return std::exp(n(rng)); });
    rootMean += lambda.cwiseSqrt() / 3.0;
    qs.push_back({Eigen::VectorXd::NullaryExpr(4, [&] { return n(rng); }), U * lambda.asDiagonal() * U.transpose()});
  }
  const FullStandard b = wassersteinBarycentre(qs);
  const Eigen::MatrixXd expected = U * rootMean.cwiseAbs2().asDiagonal() * U.transpose();
  EXPECT_LT((b.S - expected).norm() / expected.norm(), 1e-11);
  // Diagonal inputs: the full iteration and the mean-field closed form agree.
  std::vector<FullStandard> fullDiag;
  std::vector<MeanFieldStandard> diag;
  for (const FullStandard& q : qs) {
    diag.push_back({q.m, q.S.diagonal()});
    fullDiag.push_back({q.m, Eigen::MatrixXd(q.S.diagonal().asDiagonal())});
  }
  EXPECT_LT((wassersteinBarycentre(fullDiag).S.diagonal() - wassersteinBarycentre(diag).var).norm(), 1e-11);
}

TEST(WassersteinBarycentre, RandomFullCovariancesSatisfyTheFixedPoint) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> n(0.0, 1.0);
  std::vector<FullStandard> qs;
  for (int j = 0; j < 5; ++j) {
    const Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(6, 6, [&] { return n(rng); });
    qs.push_back({Eigen::VectorXd::NullaryExpr(6, [&] { return n(rng); }),
                  A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(6, 6)});
  }
  std::size_t iterations = 0;
  const FullStandard b = wassersteinBarycentre(qs, {}, &iterations);
  const Eigen::MatrixXd root = sqrtm(b.S);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(6, 6);
  for (const FullStandard& q : qs) rhs += sqrtm(root * q.S * root) / 5.0;
  const double residual = (b.S - rhs).norm() / b.S.norm();
  std::cout << "[measured] fixed-point residual " << residual << " after " << iterations << " iterations\n";
  EXPECT_LT(residual, 1e-10);
  EXPECT_TRUE(checkDistribution(b));
}

TEST(WassersteinBarycentre, BadInputIsRefused) {
  EXPECT_THROW(wassersteinBarycentre(std::vector<FullStandard>{}), std::invalid_argument);
  const MeanFieldStandard a{Eigen::VectorXd::Zero(2), Eigen::VectorXd::Ones(2)};
  const MeanFieldStandard b{Eigen::VectorXd::Zero(3), Eigen::VectorXd::Ones(3)};
  EXPECT_THROW(wassersteinBarycentre(std::vector<MeanFieldStandard>{a, b}), std::invalid_argument);
}

}  // namespace
}  // namespace pvi
