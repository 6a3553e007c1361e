#pragma once
// Checks shared by the transform tests (vector_transforms_test.cpp, cholesky_corr_test.cpp): a
// transform is a map from unconstrained values u to constrained values x with log|J|.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace pvi::test {

// x = f(u), and *lj = log|J| when lj is not null.
using TransformMap = std::function<std::vector<double>(const std::vector<double>& u, double* lj)>;

inline std::vector<double> normalValues(size_t n, std::mt19937_64& rng, double sd) {
  std::normal_distribution<double> normal(0.0, sd);
  std::vector<double> u(n);
  for (double& v : u) v = normal(rng);
  return u;
}

// log|J| at u is log|det| of the central-difference Jacobian of the density's coordinates of x
// (`coordinates`: as many as u has, e.g. a simplex's first K - 1 elements).
inline void expectLogJacobianIsLogDeterminant(const TransformMap& f,
                                              const std::function<std::vector<double>(const std::vector<double>&)>& coordinates,
                                              const std::vector<double>& u, const std::string& what) {
  const auto m = static_cast<Eigen::Index>(u.size());
  double lj = 0;
  f(u, &lj);
  Eigen::MatrixXd J(m, m);
  const double h = 1e-6;
  for (Eigen::Index j = 0; j < m; ++j) {
    std::vector<double> up = u, dn = u;
    up[static_cast<size_t>(j)] += h;
    dn[static_cast<size_t>(j)] -= h;
    const std::vector<double> xp = coordinates(f(up, nullptr)), xd = coordinates(f(dn, nullptr));
    for (Eigen::Index i = 0; i < m; ++i) J(i, j) = (xp[static_cast<size_t>(i)] - xd[static_cast<size_t>(i)]) / (2 * h);
  }
  EXPECT_NEAR(lj, std::log(std::fabs(J.determinant())), 1e-7) << what;
}

// `g` (the gradient kernel's output at u for adjoints gOut of x and gLj of log|J|) matches central
// differences of sum(gOut * x) + gLj * log|J|.
inline void expectGradientMatchesFiniteDifferences(const TransformMap& f, const std::vector<double>& u,
                                                   const std::vector<double>& gOut, double gLj,
                                                   const std::vector<double>& g, const std::string& what) {
  auto objective = [&](const std::vector<double>& p) {
    double lj = 0;
    const std::vector<double> x = f(p, &lj);
    double s = gLj * lj;
    for (size_t i = 0; i < x.size(); ++i) s += gOut[i] * x[i];
    return s;
  };
  for (size_t j = 0; j < u.size(); ++j) {
    const double h = 1e-6 * (1 + std::fabs(u[j]));
    std::vector<double> up = u, dn = u;
    up[j] += h;
    dn[j] -= h;
    const double fd = (objective(up) - objective(dn)) / (2 * h);
    EXPECT_NEAR(g[j], fd, 1e-6 * (1 + std::fabs(fd))) << what << " coordinate " << j;
  }
}

}  // namespace pvi::test
