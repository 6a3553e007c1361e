// cov_matrix, corr_matrix, cholesky_factor_cov and unit_vector parameters, with the lkj_corr,
// wishart-family and multi_normal densities, against exact posteriors, with NUTS:
// - a covariance matrix under an inverse Wishart prior and three bivariate normal observations
//   (conjugate: inverse Wishart posterior);
// - correlation matrices under LKJ priors (each correlation is 2 Beta(b, b) - 1);
// - a Cholesky factor L with L L' given an inverse Wishart density through the Jacobian of L L'
//   written out in the model (which checks cov_matrix's built-in Jacobian against an independent
//   derivation), and a 3 x 2 factor with normal elements (half-normal diagonal);
// - unit vectors: uniform on the circle, and a von Mises-Fisher density on the sphere.
// Means are held to 5 MCSE; sds to 10 standard errors of an sd estimate from ESS draws (the
// inverse Wishart's elements are skewed, so the near-Gaussian sd error is an underestimate).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "exact_moments.hpp"

namespace pvi::test {
namespace {

// The inverse Wishart's moments (Gupta and Nagar 2000, 3.4.3): E[W] = Psi / (nu - K - 1) and
// Var(W_ij) = ((nu - K + 1) psi_ij^2 + (nu - K - 1) psi_ii psi_jj) / ((nu - K) (nu - K - 1)^2 (nu - K - 3)).
std::vector<ExactMoments> inverseWishartMoments(const char* names[3], const double psi[2][2], double nu) {
  const double k = 2;
  auto sd = [&](int i, int j) {
    return std::sqrt(((nu - k + 1) * psi[i][j] * psi[i][j] + (nu - k - 1) * psi[i][i] * psi[j][j]) /
                     ((nu - k) * (nu - k - 1) * (nu - k - 1) * (nu - k - 3)));
  };
  const double d = nu - k - 1;
  // A diagonal element is inverse gamma with shape a = (nu - K + 1) / 2, of excess kurtosis
  // 6 (5a - 11) / ((a - 3)(a - 4)) for a > 4; the off-diagonal one's is estimated from the draws.
  const double a = (nu - k + 1) / 2;
  const double diagonalKurtosis = a > 4 ? 6 * (5 * a - 11) / ((a - 3) * (a - 4)) : INFINITY;
  return {{names[0], psi[0][0] / d, sd(0, 0), diagonalKurtosis},
          {names[1], psi[1][0] / d, sd(1, 0)},
          {names[2], psi[1][1] / d, sd(1, 1), diagonalKurtosis}};
}

const char* kScaleMatrix = R"(  matrix[2, 2] S;
  S[1, 1] = 1;
  S[1, 2] = 0.3;
  S[2, 1] = 0.3;
  S[2, 2] = 2;
)";

TEST(ConstrainedMatrices, CovarianceMatrixUnderAnInverseWishartPriorIsConjugate) {
  const std::string program = std::string("transformed data {\n  array[3] vector[2] y;\n") + kScaleMatrix +
                              R"(  y[1] = [1, 0.5]';
  y[2] = [-0.5, 1.5]';
  y[3] = [0.2, -1]';
}
parameters {
  cov_matrix[2] Sigma;
}
model {
  Sigma ~ inv_wishart(10, S);
  for (i in 1:3) y[i] ~ multi_normal(rep_vector(0, 2), Sigma);
}
)";
  // Posterior: inverse Wishart with nu = 10 + 3 and Psi = S + sum_i y_i y_i'.
  const double y[3][2] = {{1, 0.5}, {-0.5, 1.5}, {0.2, -1}};
  double psi[2][2] = {{1, 0.3}, {0.3, 2}};
  for (const auto& v : y)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) psi[i][j] += v[i] * v[j];
  const char* names[3] = {"Sigma.1.1", "Sigma.2.1", "Sigma.2.2"};
  expectNutsMatchesExactMoments(program, inverseWishartMoments(names, psi, 13), 5, 10);
}

TEST(ConstrainedMatrices, CorrelationMatricesUnderLkjPriors) {
  const char* program = R"(parameters {
  corr_matrix[3] Omega;
  corr_matrix[2] R;
}
model {
  Omega ~ lkj_corr(2);
}
)";
  // LKJ(eta) on K x K: each correlation is 2 Beta(b, b) - 1, b = eta - 1 + K / 2, sd 1 / sqrt(2 b + 1);
  // R has no prior statement: uniform, b = 1.
  const double sdOmega = 1 / std::sqrt(2 * 2.5 + 1), sdR = 1 / std::sqrt(3.0);
  expectNutsMatchesExactMoments(program, {{"Omega.2.1", 0, sdOmega}, {"Omega.3.2", 0, sdOmega}, {"Omega.1.3", 0, sdOmega},
                                          {"R.2.1", 0, sdR}},
                                7, 10);
}

TEST(ConstrainedMatrices, CholeskyFactorsOfCovarianceMatrices) {
  const std::string program = std::string("transformed data {\n") + kScaleMatrix + R"(}
parameters {
  cholesky_factor_cov[2] L;
  cholesky_factor_cov[3, 2] B;
}
model {
  L * L' ~ inv_wishart(10, S);
  // The Jacobian of L L' over the lower triangle: 2^K prod_k L_kk^(K - k + 1).
  target += 2 * log(2) + 2 * log(L[1, 1]) + log(L[2, 2]);
  to_vector(B) ~ normal(0, 1);
}
generated quantities {
  matrix[2, 2] Sigma = L * L';
}
)";
  const double psi[2][2] = {{1, 0.3}, {0.3, 2}};
  const char* names[3] = {"Sigma.1.1", "Sigma.2.1", "Sigma.2.2"};
  std::vector<ExactMoments> exact = inverseWishartMoments(names, psi, 10);
  const double pi = 3.14159265358979323846;
  const double halfNormalMean = std::sqrt(2 / pi), halfNormalSd = std::sqrt(1 - 2 / pi);
  exact.push_back({"B.1.1", halfNormalMean, halfNormalSd});
  exact.push_back({"B.2.2", halfNormalMean, halfNormalSd});
  exact.push_back({"B.2.1", 0, 1});
  exact.push_back({"B.3.2", 0, 1});
  expectNutsMatchesExactMoments(program, exact, 9, 10);
}

TEST(ConstrainedMatrices, UnitVectorsOnTheCircleAndTheSphere) {
  const char* program = R"(parameters {
  unit_vector[3] u;
  unit_vector[2] v;
}
model {
  target += 2 * u[3];  // von Mises-Fisher with kappa = 2 about the third axis
}
)";
  // On the sphere, the cosine to the mean direction has mean A = coth(kappa) - 1 / kappa and
  // second moment 1 - 2 A / kappa; each other coordinate has mean 0 and second moment A / kappa.
  const double kappa = 2, a = 1 / std::tanh(kappa) - 1 / kappa;
  expectNutsMatchesExactMoments(program,
                                {{"u.3", a, std::sqrt(1 - 2 * a / kappa - a * a)},
                                 {"u.1", 0, std::sqrt(a / kappa)},
                                 {"v.1", 0, std::sqrt(0.5)},
                                 {"v.2", 0, std::sqrt(0.5)}},
                                13, 10);
}

}  // namespace
}  // namespace pvi::test
