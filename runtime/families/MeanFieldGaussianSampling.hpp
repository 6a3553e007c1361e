#pragma once
// Reparameterised sampling from a mean-field Gaussian: z = m + sd .* eps, sd_i = sqrt(v_i),
// eps ~ N(0, I) supplied by the caller (or drawn with standardNormals from an engine).
// Throw std::invalid_argument when q is not a valid distribution or eps has the wrong length.
#include "runtime/families/MeanFieldGaussianParams.hpp"

#include <cstddef>
#include <random>

namespace pvi {

Eigen::VectorXd sample(const MeanFieldStandard& q, const Eigen::VectorXd& eps);
Eigen::MatrixXd sampleColumns(const MeanFieldStandard& q, const Eigen::MatrixXd& eps);  // column j: m + sd .* eps_j
Eigen::VectorXd sample(const MeanFieldStable& q, const Eigen::VectorXd& eps);
Eigen::MatrixXd sampleColumns(const MeanFieldStable& q, const Eigen::MatrixXd& eps);
// n draws as the columns of a D x n matrix; eps = standardNormals(D, n, rng).
Eigen::MatrixXd sample(const MeanFieldStandard& q, std::size_t n, std::mt19937_64& rng);

}  // namespace pvi
