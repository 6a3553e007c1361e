#pragma once
// The draw sets under tests/diagnostics/data (written by data/generate.R): a header, then one row
// per iteration and one column per chain.
#include <Eigen/Core>
#include <string>

namespace pvi::diagnostics::test {

Eigen::MatrixXd readDraws(const std::string& name);  // data/<name>.csv

// Relative difference, for comparing with the posterior package's values.
double relativeError(double actual, double expected);

}  // namespace pvi::diagnostics::test
