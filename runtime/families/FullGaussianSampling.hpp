#pragma once
// Reparameterised sampling from a full-covariance Gaussian: z = m + L eps, with L the lower
// Cholesky factor of S (S = L L^T) and eps ~ N(0, I). The caller supplies eps, so it controls the
// random stream (PVI clients and the SFVI server draw and share their own eps); the overload
// taking an engine draws eps with standardNormals (StandardNormal.hpp).
//
// Throw std::invalid_argument when q is not a valid distribution or eps has the wrong length.
#include "runtime/families/FullGaussianParams.hpp"

#include <cstddef>
#include <random>

namespace pvi {

Eigen::VectorXd sample(const FullStandard& q, const Eigen::VectorXd& eps);
Eigen::MatrixXd sampleColumns(const FullStandard& q, const Eigen::MatrixXd& eps);  // column j: m + L eps_j
Eigen::VectorXd sample(const FullStable& q, const Eigen::VectorXd& eps);          // L from the stable form
Eigen::MatrixXd sampleColumns(const FullStable& q, const Eigen::MatrixXd& eps);
// n draws as the columns of a D x n matrix; eps = standardNormals(D, n, rng).
Eigen::MatrixXd sample(const FullStandard& q, std::size_t n, std::mt19937_64& rng);

}  // namespace pvi
