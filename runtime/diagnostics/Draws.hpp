#pragma once
// The draws of one quantity as an iterations x chains matrix (one column a chain, in the order
// drawn), built from a draws column and the chain of each row, and split into half chains.
#include <Eigen/Core>
#include <cstddef>
#include <span>

namespace pvi::diagnostics {

// Iterations x chains, one quantity. Every diagnostic takes its draws as this.
using IterationsByChains = Eigen::Ref<const Eigen::MatrixXd>;

// Column c holds, in row order, the draws whose chain is the c-th smallest chain id in
// `chainOfRow`. Throws std::invalid_argument when the sizes differ, there are no draws, or the
// chains differ in length (naming the chains and their lengths).
Eigen::MatrixXd chainsAsColumns(const Eigen::Ref<const Eigen::VectorXd>& draws,
                                std::span<const std::size_t> chainOfRow);

// Each chain cut into its first and second half (2 x chains columns: the first halves, then the
// second halves). With an odd number of iterations the middle draw is dropped; a single
// iteration is returned as it is (posterior's split_chains).
Eigen::MatrixXd splitChains(const IterationsByChains& draws);

// No diagnostic is computed from these draws (posterior's should_return_NA): they are empty,
// have a NaN or an infinite value, or are constant (max - min below the machine epsilon).
bool undiagnosable(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
