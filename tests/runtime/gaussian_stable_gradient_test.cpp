// The gradient chain rule into the stable parameters, by central finite differences on every
// stable coordinate. The objective is evaluated from the stable parameters with S (or sd) built
// in the test itself: L = strictly-lower part + exp(diagonal), S = L L^T; sd = exp(logSd).
//
// Finite differences: h = 1e-5; the objectives below have third derivatives along one stable
// coordinate of at most ~1e2 for these parameters (|m| <= 1.5, covariance eigenvalues in
// [0.5, 2], points within a few sd), so truncation is <= h^2/6 * 1e2 ~ 2e-9 and rounding about
// 1e-14 / h = 1e-9. Tolerance 1e-6 (absolute, on derivatives of size O(1)) leaves a wide margin,
// while a convention slip (a missing factor 2 on S = L L^T, forgetting the exp on the diagonal,
// counting off-diagonal pairs twice) is off by O(1).
#include <gtest/gtest.h>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

constexpr double kH = 1e-5;
constexpr double kFdTol = 1e-6;

Eigen::MatrixXd choleskyOf(const FullStable& s) {
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(s.dim(), s.dim());
  for (Eigen::Index i = 0; i < s.dim(); ++i)
    for (Eigen::Index j = 0; j <= i; ++j) L(i, j) = i == j ? std::exp(s.logCholesky(i, i)) : s.logCholesky(i, j);
  return L;
}

FullStandard standardOf(const FullStable& s) {
  const Eigen::MatrixXd L = choleskyOf(s);
  return {s.m, L * L.transpose()};
}

// Compares `grad` with central differences of `objective` on every free stable coordinate.
template <class Objective>
void expectMatchesFiniteDifferences(const FullStable& at, const FullStable& grad, Objective objective) {
  for (Eigen::Index i = 0; i < at.dim(); ++i) {
    FullStable p = at, q = at;
    p.m(i) += kH;
    q.m(i) -= kH;
    EXPECT_NEAR(grad.m(i), (objective(p) - objective(q)) / (2.0 * kH), kFdTol) << "d/dm[" << i << "]";
    for (Eigen::Index j = 0; j <= i; ++j) {
      p = at;
      q = at;
      p.logCholesky(i, j) += kH;
      q.logCholesky(i, j) -= kH;
      EXPECT_NEAR(grad.logCholesky(i, j), (objective(p) - objective(q)) / (2.0 * kH), kFdTol)
          << "d/dlogCholesky(" << i << ", " << j << ")";
    }
    for (Eigen::Index j = i + 1; j < at.dim(); ++j) EXPECT_EQ(grad.logCholesky(i, j), 0.0);
  }
}

class StableGradientDims : public ::testing::TestWithParam<int> {};

TEST_P(StableGradientDims, FullFromCovarianceMatchesFiniteDifferences) {
  const int d = GetParam();
  std::mt19937_64 rng(kSeed + 110 + d);
  const FullStable at = toStable(randomFull(d, rng));
  const Eigen::VectorXd x = at.m + uniformVector(d, -1.0, 1.0, rng);
  // A non-symmetric linear term in S: its entries-independent gradient is C itself.
  Eigen::MatrixXd C(d, d);
  for (int j = 0; j < d; ++j) C.col(j) = uniformVector(d, -0.5, 0.5, rng);

  // F(m, S) = log N(x | m, S) + sum_ij C_ij S_ij.
  auto objective = [&](const FullStable& s) {
    const FullStandard q = standardOf(s);
    return refLogDensity(q, x) + C.cwiseProduct(q.S).sum();
  };
  // Its gradient, derived by hand: with r = x - m and P = S^{-1},
  //   dF/dm = P r,   dF/dS = 1/2 (P r r^T P - P) + C   (a valid G: dF = sum_ij G_ij dS_ij).
  const FullStandard q = standardOf(at);
  const Eigen::MatrixXd P = q.S.inverse();
  const Eigen::VectorXd r = x - q.m;
  const Eigen::VectorXd dFdm = P * r;
  const Eigen::MatrixXd dFdS = 0.5 * (P * r * r.transpose() * P - P) + C;
  expectMatchesFiniteDifferences(at, stableGradientFromCovariance(at, dFdm, dFdS), objective);
  // The symmetric convention for the same F gives the same answer.
  const Eigen::MatrixXd dFdSsym = 0.5 * (P * r * r.transpose() * P - P) + 0.5 * (C + C.transpose());
  const FullStable g1 = stableGradientFromCovariance(at, dFdm, dFdS);
  const FullStable g2 = stableGradientFromCovariance(at, dFdm, dFdSsym);
  EXPECT_LT((g1.logCholesky - g2.logCholesky).cwiseAbs().maxCoeff(), 1e-12);
}

TEST_P(StableGradientDims, FullFromCholeskyReparameterisedMatchesFiniteDifferences) {
  const int d = GetParam();
  std::mt19937_64 rng(kSeed + 120 + d);
  const FullStable at = toStable(randomFull(d, rng));
  const Eigen::VectorXd eps = uniformVector(d, -2.0, 2.0, rng);
  const Eigen::VectorXd c = uniformVector(d, -1.0, 1.0, rng);
  const Eigen::MatrixXd B = randomFull(d, rng).S;  // any symmetric matrix
  // f(z) = -1/2 z^T B z + c^T z at z = m + L eps; F(m, L) = f(z).
  auto objective = [&](const FullStable& s) {
    const Eigen::VectorXd z = s.m + choleskyOf(s) * eps;
    return -0.5 * z.dot(B * z) + c.dot(z);
  };
  const Eigen::VectorXd z = at.m + choleskyOf(at) * eps;
  const Eigen::VectorXd g = -B * z + c;  // grad f(z)
  const FullStable grad = stableGradientFromCholesky(at, g, g * eps.transpose());
  expectMatchesFiniteDifferences(at, grad, objective);
}

TEST_P(StableGradientDims, FullEntropyGradientIsOneOnTheLogDiagonal) {
  // H = const + sum_i logCholesky_ii, and dH/dS = S^{-1} / 2 (symmetric convention).
  const int d = GetParam();
  std::mt19937_64 rng(kSeed + 130 + d);
  const FullStandard q = randomFull(d, rng);
  const FullStable at = toStable(q);
  const FullStable grad = stableGradientFromCovariance(at, Eigen::VectorXd::Zero(d), 0.5 * q.S.inverse());
  EXPECT_LT((grad.logCholesky - Eigen::MatrixXd::Identity(d, d)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST_P(StableGradientDims, MeanFieldFromSdReparameterisedMatchesFiniteDifferences) {
  const int d = GetParam();
  std::mt19937_64 rng(kSeed + 140 + d);
  const MeanFieldStable at = toStable(randomMeanField(d, rng));
  const Eigen::VectorXd eps = uniformVector(d, -2.0, 2.0, rng);
  const Eigen::VectorXd c = uniformVector(d, -1.0, 1.0, rng);
  // f(z) = -1/2 |z|^2 + c^T z + sum_i z_i^3 / 6 at z = m + sd .* eps.
  auto f = [&](const MeanFieldStable& s) {
    const Eigen::VectorXd z = s.m + s.logSd.array().exp().matrix().cwiseProduct(eps);
    return -0.5 * z.squaredNorm() + c.dot(z) + z.array().cube().sum() / 6.0;
  };
  const Eigen::VectorXd z = at.m + at.logSd.array().exp().matrix().cwiseProduct(eps);
  const Eigen::VectorXd g = -z + c + 0.5 * z.cwiseAbs2();
  const MeanFieldStable grad = stableGradientFromSd(at, g, g.cwiseProduct(eps));
  for (Eigen::Index i = 0; i < d; ++i) {
    MeanFieldStable p = at, q = at;
    p.m(i) += kH;
    q.m(i) -= kH;
    EXPECT_NEAR(grad.m(i), (f(p) - f(q)) / (2.0 * kH), kFdTol) << "d/dm[" << i << "]";
    p = at;
    q = at;
    p.logSd(i) += kH;
    q.logSd(i) -= kH;
    EXPECT_NEAR(grad.logSd(i), (f(p) - f(q)) / (2.0 * kH), kFdTol) << "d/dlogSd[" << i << "]";
  }
}

TEST_P(StableGradientDims, MeanFieldFromVarianceMatchesFiniteDifferences) {
  const int d = GetParam();
  std::mt19937_64 rng(kSeed + 150 + d);
  const MeanFieldStable at = toStable(randomMeanField(d, rng));
  const Eigen::VectorXd x = at.m + uniformVector(d, -1.0, 1.0, rng);
  // F = log N(x | m, diag v): dF/dm_i = r_i / v_i, dF/dv_i = (r_i^2 / v_i^2 - 1 / v_i) / 2.
  auto f = [&](const MeanFieldStable& s) {
    const Eigen::VectorXd v = (2.0 * s.logSd.array()).exp().matrix();
    return refLogDensity(FullStandard{s.m, v.asDiagonal().toDenseMatrix()}, x);
  };
  const Eigen::VectorXd v = (2.0 * at.logSd.array()).exp().matrix();
  const Eigen::VectorXd r = x - at.m;
  const Eigen::VectorXd dFdm = r.cwiseQuotient(v);
  const Eigen::VectorXd dFdv = 0.5 * (r.cwiseAbs2().cwiseQuotient(v.cwiseAbs2()) - v.cwiseInverse());
  const MeanFieldStable grad = stableGradientFromVariance(at, dFdm, dFdv);
  for (Eigen::Index i = 0; i < d; ++i) {
    MeanFieldStable p = at, q = at;
    p.m(i) += kH;
    q.m(i) -= kH;
    EXPECT_NEAR(grad.m(i), (f(p) - f(q)) / (2.0 * kH), kFdTol) << "d/dm[" << i << "]";
    p = at;
    q = at;
    p.logSd(i) += kH;
    q.logSd(i) -= kH;
    EXPECT_NEAR(grad.logSd(i), (f(p) - f(q)) / (2.0 * kH), kFdTol) << "d/dlogSd[" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, StableGradientDims, ::testing::Values(1, 3, 10),
                         [](const auto& info) { return "D" + std::to_string(info.param); });

TEST(StableGradient, ShapeMismatchThrows) {
  std::mt19937_64 rng(kSeed + 15);
  const FullStable at = toStable(randomFull(3, rng));
  EXPECT_THROW(stableGradientFromCholesky(at, Eigen::VectorXd::Zero(2), Eigen::MatrixXd::Zero(3, 3)),
               std::invalid_argument);
  EXPECT_THROW(stableGradientFromCovariance(at, Eigen::VectorXd::Zero(3), Eigen::MatrixXd::Zero(3, 2)),
               std::invalid_argument);
  const MeanFieldStable atm = toStable(randomMeanField(3, rng));
  EXPECT_THROW(stableGradientFromSd(atm, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(4)), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
