#pragma once
// Standard normal draws from a std::mt19937_64 stream, for the sampling conveniences.
//
// std::normal_distribution's algorithm is implementation-defined, so its draws differ between
// standard libraries. This uses a fixed recipe instead: uniforms u = (k >> 11) * 2^-53 from the
// engine's 64-bit outputs k, and the Box-Muller transform on pairs
//   r = sqrt(-2 log(1 - u1)),  e1 = r cos(2 pi u2),  e2 = r sin(2 pi u2),
// filling the result in column-major order (column j is draw j). Every call consumes
// 2 * ceil(rows * cols / 2) engine outputs and keeps no state between calls. The draws are then
// reproducible wherever mt19937_64 is (it is fully specified) up to the last-bit differences of
// std::log/std::cos/std::sin between math libraries.
#include <Eigen/Core>
#include <random>

namespace pvi {

Eigen::MatrixXd standardNormals(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng);

// The same recipe into out[0..n), without allocating (the samplers draw a momentum per
// transition): standardNormals(rows, cols, rng) equals fillStandardNormals over rows * cols.
void fillStandardNormals(double* out, Eigen::Index n, std::mt19937_64& rng);

}  // namespace pvi
