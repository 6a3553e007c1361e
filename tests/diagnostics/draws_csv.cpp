#include "draws_csv.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace pvi::diagnostics::test {

Eigen::MatrixXd readDraws(const std::string& name) {
  const std::string path = std::string(PVI_SOURCE_DIR) + "/tests/diagnostics/data/" + name + ".csv";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) row.push_back(std::stod(field));
    rows.push_back(std::move(row));
  }
  Eigen::MatrixXd draws(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.front().size()));
  for (Eigen::Index i = 0; i < draws.rows(); ++i)
    for (Eigen::Index c = 0; c < draws.cols(); ++c) draws(i, c) = rows[static_cast<std::size_t>(i)].at(c);
  return draws;
}

double relativeError(double actual, double expected) { return std::abs(actual - expected) / std::abs(expected); }

}  // namespace pvi::diagnostics::test
