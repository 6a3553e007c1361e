#include "runtime/diagnostics/Draws.hpp"

#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pvi::diagnostics {

Eigen::MatrixXd chainsAsColumns(const Eigen::Ref<const Eigen::VectorXd>& draws,
                                std::span<const std::size_t> chainOfRow) {
  if (static_cast<std::size_t>(draws.size()) != chainOfRow.size())
    throw std::invalid_argument("chainsAsColumns: " + std::to_string(draws.size()) + " draws but " +
                                std::to_string(chainOfRow.size()) + " chain indices");
  if (chainOfRow.empty()) throw std::invalid_argument("chainsAsColumns: no draws");
  std::map<std::size_t, std::vector<Eigen::Index>> rowsOfChain;
  for (std::size_t row = 0; row < chainOfRow.size(); ++row)
    rowsOfChain[chainOfRow[row]].push_back(static_cast<Eigen::Index>(row));
  const auto& [firstChain, firstRows] = *rowsOfChain.begin();
  for (const auto& [chain, rows] : rowsOfChain)
    if (rows.size() != firstRows.size())
      throw std::invalid_argument("chainsAsColumns: chain " + std::to_string(chain) + " has " +
                                  std::to_string(rows.size()) + " draws but chain " + std::to_string(firstChain) +
                                  " has " + std::to_string(firstRows.size()) + ": chains must be of equal length");
  Eigen::MatrixXd out(static_cast<Eigen::Index>(firstRows.size()), static_cast<Eigen::Index>(rowsOfChain.size()));
  Eigen::Index column = 0;
  for (const auto& [chain, rows] : rowsOfChain) {
    for (std::size_t i = 0; i < rows.size(); ++i) out(static_cast<Eigen::Index>(i), column) = draws[rows[i]];
    ++column;
  }
  return out;
}

Eigen::MatrixXd splitChains(const IterationsByChains& draws) {
  const Eigen::Index n = draws.rows();
  if (n == 1) return draws;
  const Eigen::Index half = n / 2;  // the first half; the second starts after the middle draw when n is odd
  Eigen::MatrixXd out(half, 2 * draws.cols());
  out << draws.topRows(half), draws.bottomRows(half);
  return out;
}

bool undiagnosable(const IterationsByChains& draws) {
  if (draws.size() == 0 || !draws.allFinite()) return true;
  return draws.maxCoeff() - draws.minCoeff() < std::numeric_limits<double>::epsilon();
}

}  // namespace pvi::diagnostics
