#pragma once
// Log density of a full-covariance Gaussian at a point:
//   log q(z) = -D/2 log(2 pi) - 1/2 log det S - 1/2 (z - m)^T S^{-1} (z - m),
// evaluated with the Cholesky factor L of S: the quadratic form is |L^{-1} (z - m)|^2.
// Throws std::invalid_argument when q is not a valid distribution or z has the wrong length.
#include "runtime/families/FullGaussianParams.hpp"

namespace pvi {

double logDensity(const FullStandard& q, const Eigen::VectorXd& z);
// One log density per column of Z (D x n), factorising S once.
Eigen::VectorXd logDensityColumns(const FullStandard& q, const Eigen::MatrixXd& Z);

}  // namespace pvi
