#pragma once
// Log density of a mean-field Gaussian at a point:
//   log q(z) = sum_i [ -1/2 log(2 pi v_i) - (z_i - m_i)^2 / (2 v_i) ].
// Throws std::invalid_argument when q is not a valid distribution or z has the wrong length.
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

double logDensity(const MeanFieldStandard& q, const Eigen::VectorXd& z);
Eigen::VectorXd logDensityColumns(const MeanFieldStandard& q, const Eigen::MatrixXd& Z);  // one per column

}  // namespace pvi
