#pragma once
// The sample mean and variance the diagnostics are built from, as R's mean and var compute them.
#include <Eigen/Core>

namespace pvi::diagnostics {

// Two passes: sum / n, corrected by the mean of the residuals. NaN when x is empty.
double mean(const Eigen::Ref<const Eigen::VectorXd>& x);

// Denominator n - 1. NaN when x has fewer than two values.
double sampleVariance(const Eigen::Ref<const Eigen::VectorXd>& x);

// The mean and sample variance of each column.
Eigen::VectorXd columnMeans(const Eigen::Ref<const Eigen::MatrixXd>& x);
Eigen::VectorXd columnVariances(const Eigen::Ref<const Eigen::MatrixXd>& x);

}  // namespace pvi::diagnostics
