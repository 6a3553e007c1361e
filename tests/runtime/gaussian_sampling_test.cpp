// Reparameterised sampling: the deterministic map z = m + L eps, and a Monte Carlo check that
// draws from the engine convenience have mean m and covariance S.
//
// Monte Carlo tolerances. With n independent draws from N(m, S):
//   the sample mean of coordinate i has standard error sqrt(S_ii / n);
//   the sample covariance C_ij has variance (S_ii S_jj + S_ij^2) / n (Isserlis / Wishart), so
//     standard error sqrt((S_ii S_jj + S_ij^2) / n).
// Each statistic must lie within 5 standard errors (two-sided tail probability 5.7e-7 per check;
// over the ~90 checks below that is < 1e-4 of a false alarm for an arbitrary seed, and the seed
// is fixed). A sampler with L^T in place of L, sd in place of variance, or a missing m fails by
// many standard errors: at n = 200,000 one standard error is ~0.003.
#include <gtest/gtest.h>

#include "GaussianTestSupport.hpp"

namespace pvi::test {
namespace {

constexpr std::size_t kDraws = 200000;
constexpr double kSe = 5.0;

void expectMomentsMatch(const Eigen::MatrixXd& draws, const Eigen::VectorXd& m, const Eigen::MatrixXd& S) {
  const double n = static_cast<double>(draws.cols());
  const Eigen::VectorXd mean = draws.rowwise().mean();
  const Eigen::MatrixXd centred = draws.colwise() - mean;
  const Eigen::MatrixXd cov = centred * centred.transpose() / (n - 1.0);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const double se = std::sqrt(S(i, i) / n);
    EXPECT_NEAR(mean(i), m(i), kSe * se) << "mean[" << i << "]";
    for (Eigen::Index j = 0; j <= i; ++j) {
      const double seCov = std::sqrt((S(i, i) * S(j, j) + S(i, j) * S(i, j)) / n);
      EXPECT_NEAR(cov(i, j), S(i, j), kSe * seCov) << "cov(" << i << ", " << j << ")";
    }
  }
}

TEST(Sampling, FullMonteCarloMomentsCorrelated3D) {
  // Strong correlations (0.8 and -0.4 in correlation terms; det S = 0.2) and a non-zero mean.
  FullStandard q{Eigen::Vector3d(1.0, -2.0, 0.5),
                 (Eigen::Matrix3d() << 4.0, 1.6, -0.4, 1.6, 1.0, 0.0, -0.4, 0.0, 0.25).finished()};
  ASSERT_TRUE(isValidDistribution(q));
  std::mt19937_64 rng(kSeed);
  expectMomentsMatch(sample(q, kDraws, rng), q.m, q.S);
}

TEST(Sampling, FullMonteCarloMomentsRandom10D) {
  std::mt19937_64 paramRng(kSeed + 5);
  const FullStandard q = randomFull(10, paramRng);
  std::mt19937_64 rng(kSeed + 6);
  expectMomentsMatch(sample(q, kDraws, rng), q.m, q.S);
}

TEST(Sampling, MeanFieldMonteCarloMoments) {
  const MeanFieldStandard q{Eigen::Vector3d(-1.0, 0.0, 3.0), Eigen::Vector3d(0.25, 1.0, 9.0)};
  std::mt19937_64 rng(kSeed + 7);
  expectMomentsMatch(sample(q, kDraws, rng), q.m, asFull(q).S);
}

TEST(Sampling, StandardNormalsHaveGaussianMarginal) {
  // Moments alone do not show normality: P(|e| < 1) = erf(1/sqrt 2) = 0.682689492... for N(0, 1).
  // Its estimate from n draws has standard error sqrt(p (1 - p) / n); allow 5 of them.
  std::mt19937_64 rng(kSeed + 8);
  const Eigen::MatrixXd e = standardNormals(1, static_cast<Eigen::Index>(kDraws), rng);
  const double p = std::erf(1.0 / std::sqrt(2.0));
  const double frac = (e.array().abs() < 1.0).cast<double>().mean();
  EXPECT_NEAR(frac, p, kSe * std::sqrt(p * (1.0 - p) / static_cast<double>(kDraws)));
  // Fourth moment 3 (kurtosis of a normal); the variance of e^4 is E e^8 - 9 = 105 - 9 = 96.
  const double m4 = e.array().pow(4).mean();
  EXPECT_NEAR(m4, 3.0, kSe * std::sqrt(96.0 / static_cast<double>(kDraws)));
}

TEST(Sampling, StandardNormalsAreReproducibleAndConsumeAFixedNumberOfOutputs) {
  std::mt19937_64 a(kSeed), b(kSeed);
  EXPECT_EQ(standardNormals(3, 5, a), standardNormals(3, 5, b));
  // 15 values use 2 * ceil(15 / 2) = 16 engine outputs.
  std::mt19937_64 c(kSeed), d(kSeed);
  standardNormals(3, 5, c);
  d.discard(16);
  EXPECT_EQ(c, d);
}

TEST(Sampling, FullReparameterisationIsMeanPlusLowerCholeskyTimesEps) {
  // Feeding the unit vectors e_k as eps gives m + L e_k: the columns of L. L must be lower
  // triangular with a positive diagonal and L L^T = S (the lower Cholesky factor is unique).
  std::mt19937_64 rng(kSeed + 9);
  const FullStandard q = randomFull(4, rng);
  const Eigen::MatrixXd cols = sampleColumns(q, Eigen::MatrixXd::Identity(4, 4));
  const Eigen::MatrixXd L = cols.colwise() - q.m;
  for (Eigen::Index i = 0; i < 4; ++i) {
    EXPECT_GT(L(i, i), 0.0);
    for (Eigen::Index j = i + 1; j < 4; ++j) EXPECT_NEAR(L(i, j), 0.0, 1e-15);
  }
  EXPECT_LT(relErr(L * L.transpose(), q.S), 1e-12);
  // Single-vector, stable-form and column forms agree.
  const Eigen::VectorXd eps = uniformVector(4, -2.0, 2.0, rng);
  const Eigen::VectorXd z = sample(q, eps);
  EXPECT_LT(relErr(z, q.m + L * eps), 1e-12);
  EXPECT_LT(relErr(sample(toStable(q), eps), z), 1e-12);
  EXPECT_LT(relErr(sampleColumns(toStable(q), eps), z), 1e-12);
}

TEST(Sampling, MeanFieldReparameterisationIsMeanPlusSdTimesEps) {
  std::mt19937_64 rng(kSeed + 10);
  const MeanFieldStandard q = randomMeanField(4, rng);
  const Eigen::VectorXd eps = uniformVector(4, -2.0, 2.0, rng);
  const Eigen::VectorXd expected = q.m + q.var.cwiseSqrt().cwiseProduct(eps);
  EXPECT_LT(relErr(sample(q, eps), expected), 1e-14);
  EXPECT_LT(relErr(sample(toStable(q), eps), expected), 1e-12);
  // The full family on the same diagonal covariance maps eps identically.
  EXPECT_LT(relErr(sample(asFull(q), eps), expected), 1e-12);
}

TEST(Sampling, WrongEpsLengthThrows) {
  std::mt19937_64 rng(kSeed + 11);
  EXPECT_THROW(sample(randomFull(3, rng), Eigen::VectorXd::Zero(2)), std::invalid_argument);
  EXPECT_THROW(sample(randomMeanField(3, rng), Eigen::VectorXd::Zero(4)), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::test
