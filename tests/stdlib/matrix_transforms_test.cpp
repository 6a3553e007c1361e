// cholesky_factor_cov[M, N], cov_matrix[K], corr_matrix[K] and unit_vector[K]
// (stdlib/kernels/arith/matrix_transforms.cpp):
// - each maps into its set (lower triangular with a positive diagonal; symmetric positive
//   definite; that with a unit diagonal; unit length), matrix by matrix, and its inverse returns
//   the unconstrained point;
// - the log-Jacobian of the three matrix transforms is log|det J| of the map to the elements the
//   density is over (on and below the diagonal; below it for a correlation matrix), by central
//   finite differences;
// - unit_vector's term -|y|^2 / 2 makes y standard normal when x is uniform: checked by the
//   change of variables to (radius, direction), log|J| = log r^(K - 1) against r's chi density;
// - each gradient kernel matches finite differences of sum(g_out * x) + g_lj * log|J|;
// - each inverse refuses what is not in its set, naming the first element that is wrong.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "stdlib/kernels/arith/arith.h"
#include "transform_checks.hpp"

namespace {

using pvi::test::normalValues;

// One-size transforms (cov_matrix, corr_matrix, unit_vector) and cholesky_factor_cov's two sizes,
// behind one signature: x = f(u) for `count` matrices (vectors) of rows x cols.
struct MatrixTransform {
  std::string name;
  int64_t rows, cols;
  int64_t freePer;  // unconstrained values per matrix
  // Which elements (column-major) carry the density: the Jacobian's coordinates.
  std::vector<int64_t> coordinates;
};

int64_t kind(const std::string& name) {
  return name == "cholesky_factor_cov" ? 0 : name == "cov_matrix" ? 1 : name == "corr_matrix" ? 2 : 3;
}

MatrixTransform make(const std::string& name, int64_t rows, int64_t cols) {
  MatrixTransform t{name, rows, cols, 0, {}};
  const bool withDiagonal = kind(name) <= 1;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols && (withDiagonal ? j <= i : j < i); ++j) t.coordinates.push_back(i + j * rows);
  t.freePer = static_cast<int64_t>(t.coordinates.size());
  return t;
}

std::vector<double> forward(const MatrixTransform& t, const std::vector<double>& u, int64_t count, double* lj) {
  std::vector<double> x(static_cast<size_t>(t.rows * t.cols * count));
  const double r = static_cast<double>(t.rows), c = static_cast<double>(t.cols);
  const auto n = static_cast<int64_t>(x.size());
  double l = 0;
  switch (kind(t.name)) {
    case 0: l = pvi_tf_cholesky_factor_cov(n, u.data(), &r, 0, &c, 0, x.data()); break;
    case 1: l = pvi_tf_cov_matrix(n, u.data(), &r, 0, x.data()); break;
    case 2: l = pvi_tf_corr_matrix(n, u.data(), &r, 0, x.data()); break;
    default: l = pvi_tf_unit_vector(n, u.data(), &r, 0, x.data()); break;
  }
  if (lj) *lj = l;
  return x;
}

void backward(const MatrixTransform& t, const std::vector<double>& u, const std::vector<double>& x,
              const std::vector<double>& gOut, double gLj, std::vector<double>& g) {
  const double r = static_cast<double>(t.rows), c = static_cast<double>(t.cols);
  const auto n = static_cast<int64_t>(x.size());
  switch (kind(t.name)) {
    case 0:
      pvi_tf_cholesky_factor_cov_grad(n, u.data(), &r, 0, &c, 0, x.data(), gOut.data(), gLj, g.data(), nullptr,
                                      nullptr);
      break;
    case 1: pvi_tf_cov_matrix_grad(n, u.data(), &r, 0, x.data(), gOut.data(), gLj, g.data(), nullptr); break;
    case 2: pvi_tf_corr_matrix_grad(n, u.data(), &r, 0, x.data(), gOut.data(), gLj, g.data(), nullptr); break;
    default: pvi_tf_unit_vector_grad(n, u.data(), &r, 0, x.data(), gOut.data(), gLj, g.data(), nullptr); break;
  }
}

int64_t inverse(const MatrixTransform& t, const std::vector<double>& x, std::vector<double>& u) {
  const double r = static_cast<double>(t.rows), c = static_cast<double>(t.cols);
  const auto n = static_cast<int64_t>(u.size());
  switch (kind(t.name)) {
    case 0: return pvi_tf_cholesky_factor_cov_inv(n, x.data(), &r, 0, &c, 0, u.data());
    case 1: return pvi_tf_cov_matrix_inv(n, x.data(), &r, 0, u.data());
    case 2: return pvi_tf_corr_matrix_inv(n, x.data(), &r, 0, u.data());
    default: return pvi_tf_unit_vector_inv(n, x.data(), &r, 0, u.data());
  }
}

std::vector<MatrixTransform> matrixTransforms() {
  std::vector<MatrixTransform> ts;
  for (int64_t k : {1, 2, 3, 5}) {
    ts.push_back(make("cov_matrix", k, k));
    ts.push_back(make("corr_matrix", k, k));
    ts.push_back(make("cholesky_factor_cov", k, k));
  }
  ts.push_back(make("cholesky_factor_cov", 4, 2));
  ts.push_back(make("cholesky_factor_cov", 3, 1));
  return ts;
}

std::string label(const MatrixTransform& t) {
  return t.name + "[" + std::to_string(t.rows) + ", " + std::to_string(t.cols) + "]";
}

Eigen::Map<const Eigen::MatrixXd> matrixAt(const std::vector<double>& x, const MatrixTransform& t, int64_t m) {
  return {x.data() + m * t.rows * t.cols, t.rows, t.cols};
}

TEST(MatrixTransforms, MapIntoTheirSetsAndInvert) {
  std::mt19937_64 rng(3);
  for (const MatrixTransform& t : matrixTransforms()) {
    const int64_t count = 3;
    const std::vector<double> u = normalValues(static_cast<size_t>(t.freePer * count), rng, 0.9);
    const std::vector<double> x = forward(t, u, count, nullptr);
    for (int64_t m = 0; m < count; ++m) {
      const Eigen::MatrixXd X = matrixAt(x, t, m);
      if (t.name == "cholesky_factor_cov") {
        for (int64_t i = 0; i < t.rows; ++i)
          for (int64_t j = 0; j < t.cols; ++j) {
            if (j > i) {
              EXPECT_EQ(X(i, j), 0.0) << label(t);
            } else if (j == i) {
              EXPECT_GT(X(i, j), 0.0) << label(t);
            }
          }
        continue;
      }
      EXPECT_EQ((X - X.transpose()).norm(), 0.0) << label(t);  // exactly symmetric
      EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(X).info(), Eigen::Success) << label(t);
      if (t.name == "corr_matrix") {
        for (int64_t i = 0; i < t.rows; ++i) EXPECT_NEAR(X(i, i), 1.0, 1e-14) << label(t);
      }
    }
    std::vector<double> back(u.size());
    ASSERT_EQ(inverse(t, x, back), 0) << label(t);
    for (size_t i = 0; i < u.size(); ++i) EXPECT_NEAR(back[i], u[i], 1e-9 * (1 + std::fabs(u[i]))) << label(t) << " " << i;
  }
}

TEST(MatrixTransforms, LogJacobianIsTheLogDeterminant) {
  std::mt19937_64 rng(8);
  for (const MatrixTransform& t : matrixTransforms()) {
    if (t.freePer == 0) continue;
    pvi::test::expectLogJacobianIsLogDeterminant(
        [&t](const std::vector<double>& u, double* lj) { return forward(t, u, 1, lj); },
        [&t](const std::vector<double>& x) {
          std::vector<double> c;
          for (int64_t e : t.coordinates) c.push_back(x[static_cast<size_t>(e)]);
          return c;
        },
        normalValues(static_cast<size_t>(t.freePer), rng, 0.7), label(t));
  }
}

TEST(MatrixTransforms, GradientsMatchFiniteDifferences) {
  std::mt19937_64 rng(12);
  std::vector<MatrixTransform> ts = matrixTransforms();
  for (int64_t k : {2, 3, 6}) ts.push_back(make("unit_vector", k, 1));
  for (const MatrixTransform& t : ts) {
    const int64_t count = 2;
    const int64_t freePer = t.name == "unit_vector" ? t.rows : t.freePer;
    const std::vector<double> u = normalValues(static_cast<size_t>(freePer * count), rng, 0.8);
    const std::vector<double> gOut = normalValues(static_cast<size_t>(t.rows * t.cols * count), rng, 1.0);
    const double gLj = -0.6;
    const std::vector<double> x = forward(t, u, count, nullptr);
    std::vector<double> g(u.size(), 0.0);
    backward(t, u, x, gOut, gLj, g);
    pvi::test::expectGradientMatchesFiniteDifferences(
        [&](const std::vector<double>& p, double* lj) { return forward(t, p, count, lj); }, u, gOut, gLj, g, label(t));
  }
}

// y = r x with x on the unit sphere: dy = r^(K - 1) dr dx, so a density exp(lj(y)) q(x) over y
// with lj = -r^2 / 2 integrates over r to (2 pi)^(K/2) / |S^(K-1)| q(x): x has density q on the
// sphere exactly when exp(-r^2/2) r^(K - 1) is r's (unnormalised chi) density. Checked pointwise:
// lj(y) - lj(y') for two points on the same ray is -(r^2 - r'^2) / 2, and the output is the
// direction.
TEST(UnitVectorTransform, IsTheDirectionAndAGaussianRadiusTerm) {
  std::mt19937_64 rng(17);
  for (int64_t k : {1, 2, 3, 7}) {
    const MatrixTransform t = make("unit_vector", k, 1);
    const std::vector<double> y = normalValues(static_cast<size_t>(k), rng, 1.0);
    double r2 = 0;
    for (double v : y) r2 += v * v;
    double lj = 0, ljScaled = 0;
    const std::vector<double> x = forward(t, y, 1, &lj);
    std::vector<double> y3 = y;
    for (double& v : y3) v *= 3;
    const std::vector<double> x3 = forward(t, y3, 1, &ljScaled);
    EXPECT_NEAR(lj, -r2 / 2, 1e-14 * (1 + r2)) << k;
    EXPECT_NEAR(ljScaled - lj, -4 * r2, 1e-12 * (1 + r2)) << k;
    double norm = 0;
    for (int64_t i = 0; i < k; ++i) {
      EXPECT_NEAR(x[static_cast<size_t>(i)], y[static_cast<size_t>(i)] / std::sqrt(r2), 1e-15) << k;
      EXPECT_NEAR(x3[static_cast<size_t>(i)], x[static_cast<size_t>(i)], 1e-15) << k;
      norm += x[static_cast<size_t>(i)] * x[static_cast<size_t>(i)];
    }
    EXPECT_NEAR(norm, 1.0, 1e-15) << k;
    std::vector<double> back(static_cast<size_t>(k));
    ASSERT_EQ(inverse(t, x, back), 0);
    EXPECT_EQ(back, x);  // the point of the sphere itself, radius 1
  }
  const double three = 3;
  double x[3];
  const double origin[] = {0, 0, 0};
  EXPECT_EQ(pvi_tf_unit_vector(3, origin, &three, 0, x), -INFINITY);  // no direction
}

TEST(MatrixTransforms, InversesRefuseWhatIsNotInTheSet) {
  double u[8];
  const double two = 2, three = 3;
  // cov_matrix[2]: not symmetric (element (1, 2) differs: index 2 + 1), not positive definite.
  const double asymmetric[] = {2.0, 0.5, 0.4, 1.0};
  EXPECT_EQ(pvi_tf_cov_matrix_inv(3, asymmetric, &two, 0, u), 3);
  const double indefinite[] = {1.0, 2.0, 2.0, 1.0};
  EXPECT_EQ(pvi_tf_cov_matrix_inv(3, indefinite, &two, 0, u), 1);
  const double covariance[] = {4.0, 1.0, 1.0, 2.0};
  ASSERT_EQ(pvi_tf_cov_matrix_inv(3, covariance, &two, 0, u), 0);
  EXPECT_NEAR(u[0], std::log(2.0), 1e-15);  // L = [[2, 0], [0.5, sqrt(1.75)]], row by row
  EXPECT_NEAR(u[1], 0.5, 1e-15);
  EXPECT_NEAR(u[2], 0.5 * std::log(1.75), 1e-15);
  // corr_matrix[2]: a diagonal element that is not 1 (index 3 + 1), a correlation of 1.
  const double notUnit[] = {1.0, 0.3, 0.3, 1.5};
  EXPECT_EQ(pvi_tf_corr_matrix_inv(1, notUnit, &two, 0, u), 4);
  const double singular[] = {1.0, 1.0, 1.0, 1.0};
  EXPECT_NE(pvi_tf_corr_matrix_inv(1, singular, &two, 0, u), 0);
  const double correlation[] = {1.0, -0.4, -0.4, 1.0};
  ASSERT_EQ(pvi_tf_corr_matrix_inv(1, correlation, &two, 0, u), 0);
  EXPECT_NEAR(u[0], std::atanh(-0.4), 1e-15);
  // cholesky_factor_cov[3, 2]: an element above the diagonal (index 3 + 1), a diagonal element not
  // positive (index 4 + 1); the inverse writes 2 * 3 / 2 + 1 * 2 = 5 values.
  const double upper[] = {1.0, 0.5, 0.2, 0.1, 2.0, 0.3};
  EXPECT_EQ(pvi_tf_cholesky_factor_cov_inv(5, upper, &three, 0, &two, 0, u), 4);
  const double zeroDiagonal[] = {1.0, 0.5, 0.2, 0.0, 0.0, 0.3};
  EXPECT_EQ(pvi_tf_cholesky_factor_cov_inv(5, zeroDiagonal, &three, 0, &two, 0, u), 5);
  // cholesky_factor_cov[2, 3] (sizes from data, which the checker cannot refuse): no such factor,
  // density zero; it reads only its 2 * 3 / 2 = 3 values.
  const double twoByThree[] = {0.1, 0.2, 0.3};
  double factor[6];
  EXPECT_EQ(pvi_tf_cholesky_factor_cov(6, twoByThree, &two, 0, &three, 0, factor), -INFINITY);
  // unit_vector[3]: the second vector is not of unit length (its first element: index 3 + 1).
  const double vectors[] = {0.6, 0.0, 0.8, 0.6, 0.6, 0.6};
  EXPECT_EQ(pvi_tf_unit_vector_inv(6, vectors, &three, 0, u), 4);
}

}  // namespace
