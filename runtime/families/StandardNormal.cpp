#include "runtime/families/StandardNormal.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pvi {
namespace {

double uniform53(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }  // [0, 1)

}  // namespace

Eigen::MatrixXd standardNormals(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  if (rows < 0 || cols < 0) throw std::invalid_argument("standardNormals: negative size");
  Eigen::MatrixXd out(rows, cols);
  fillStandardNormals(out.data(), out.size(), rng);  // column-major
  return out;
}

void fillStandardNormals(double* data, Eigen::Index n, std::mt19937_64& rng) {
  for (Eigen::Index k = 0; k < n; k += 2) {
    const double u1 = uniform53(rng);
    const double u2 = uniform53(rng);
    const double r = std::sqrt(-2.0 * std::log1p(-u1));  // 1 - u1 in (0, 1]
    const double angle = 2.0 * std::numbers::pi * u2;
    data[k] = r * std::cos(angle);
    if (k + 1 < n) data[k + 1] = r * std::sin(angle);
  }
}

}  // namespace pvi
