#pragma once
// The four parameterisations of the full-covariance Gaussian family over the unconstrained global
// vector z of dimension D (design section 6):
//
//   natural   eta = (eta1, eta2) = (P m, -P/2),      P = S^{-1} the precision;
//   mean      mu  = (m, M),       M = E[z z^T] = S + m m^T;
//   standard        (m, S);
//   stable          (m, logCholesky): the lower Cholesky factor L of S (S = L L^T, L_ii > 0) with
//                   its diagonal stored as log L_ii, so every real lower-triangular array is a
//                   valid distribution. Entries above the diagonal are ignored and kept zero.
//
// The sufficient statistic is T(z) = (z, z z^T), paired with eta by
//   <eta, T(z)> = eta1^T z + z^T eta2 z = eta1^T z + sum_ij eta2_ij z_i z_j,
// so eta2 is a symmetric D x D matrix and the inner product of two parameter sets is the sum of
// the vector dot product and the elementwise (Frobenius) product of the matrices.
//
// The structs are plain data. A natural parameter set is also what a PVI factor t_k stores; it
// may be improper (e.g. the flat factor, all zeros), so the structs do not enforce validity: see
// FullGaussianValidity.hpp.
#include <Eigen/Core>

namespace pvi {

struct FullNatural {
  Eigen::VectorXd eta1;  // P m
  Eigen::MatrixXd eta2;  // -P / 2, symmetric

  Eigen::Index dim() const { return eta1.size(); }
  // The flat factor t(z) = 1: all natural parameters zero. Valid as a factor, not a distribution.
  static FullNatural flat(Eigen::Index d) { return {Eigen::VectorXd::Zero(d), Eigen::MatrixXd::Zero(d, d)}; }
};

struct FullMean {
  Eigen::VectorXd m;       // E[z]
  Eigen::MatrixXd second;  // E[z z^T] = S + m m^T

  Eigen::Index dim() const { return m.size(); }
};

struct FullStandard {
  Eigen::VectorXd m;  // mean
  Eigen::MatrixXd S;  // covariance, symmetric positive definite

  Eigen::Index dim() const { return m.size(); }
};

struct FullStable {
  Eigen::VectorXd m;            // mean
  Eigen::MatrixXd logCholesky;  // strictly lower: L_ij (i > j); diagonal: log L_ii; upper: ignored

  Eigen::Index dim() const { return m.size(); }
};

// The family as a type, for code generic over families.
struct FullGaussian {
  using Natural = FullNatural;
  using Mean = FullMean;
  using Standard = FullStandard;
  using Stable = FullStable;
  static constexpr const char* name = "full-covariance Gaussian";
};

}  // namespace pvi
