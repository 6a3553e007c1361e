#pragma once
// Shared helpers for the Gaussian family tests: random well-conditioned parameters from a fixed
// seed, relative errors, and reference formulas written independently of the runtime (explicit
// inverse() and determinant(), i.e. Eigen's LU, never the runtime's Cholesky code paths).
#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>

#include "runtime/families/Gaussian.hpp"

namespace pvi::test {

inline constexpr std::uint64_t kSeed = 20240604;

// Entries uniform in [lo, hi].
inline Eigen::VectorXd uniformVector(Eigen::Index d, double lo, double hi, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(lo, hi);
  Eigen::VectorXd v(d);
  for (Eigen::Index i = 0; i < d; ++i) v(i) = u(rng);
  return v;
}

// A random orthogonal matrix: the Q factor of a matrix with independent N(0, 1) entries.
inline Eigen::MatrixXd randomOrthogonal(Eigen::Index d, std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::MatrixXd g(d, d);
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i < d; ++i) g(i, j) = n(rng);
  return Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ();
}

// Well-conditioned: covariance eigenvalues in [0.5, 2] (condition number <= 4), |m_i| <= 1.5.
inline FullStandard randomFull(Eigen::Index d, std::mt19937_64& rng) {
  const Eigen::MatrixXd q = randomOrthogonal(d, rng);
  const Eigen::VectorXd lambda = uniformVector(d, 0.5, 2.0, rng);
  Eigen::MatrixXd s = q * lambda.asDiagonal() * q.transpose();
  s = 0.5 * (s + s.transpose());
  return {uniformVector(d, -1.5, 1.5, rng), s};
}

inline MeanFieldStandard randomMeanField(Eigen::Index d, std::mt19937_64& rng) {
  return {uniformVector(d, -1.5, 1.5, rng), uniformVector(d, 0.5, 2.0, rng)};
}

inline FullStandard asFull(const MeanFieldStandard& q) { return {q.m, q.var.asDiagonal().toDenseMatrix()}; }

// |a - b| / |b| in the Frobenius norm; b must not be zero.
inline double relErr(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / b.norm(); }

inline double log2pi() { return std::log(2.0 * std::numbers::pi); }

// ---- Reference formulas (independent of the runtime) ------------------------------------------

// KL(q1 || q2) = 1/2 [tr(S2^{-1} S1) + (m2-m1)^T S2^{-1} (m2-m1) - D + log det S2 - log det S1].
inline double refKl(const FullStandard& q1, const FullStandard& q2) {
  const Eigen::MatrixXd s2inv = q2.S.inverse();
  const Eigen::VectorXd dm = q2.m - q1.m;
  const double d = static_cast<double>(q1.m.size());
  return 0.5 * ((s2inv * q1.S).trace() + dm.dot(s2inv * dm) - d + std::log(q2.S.determinant()) -
                std::log(q1.S.determinant()));
}

// H = 1/2 log det(2 pi e S).
inline double refEntropy(const FullStandard& q) {
  return 0.5 * std::log((2.0 * std::numbers::pi * std::numbers::e * q.S).determinant());
}

// log N(z | m, S) = -1/2 [D log 2 pi + log det S + (z-m)^T S^{-1} (z-m)].
inline double refLogDensity(const FullStandard& q, const Eigen::VectorXd& z) {
  const Eigen::VectorXd r = z - q.m;
  const double d = static_cast<double>(z.size());
  return -0.5 * (d * log2pi() + std::log(q.S.determinant()) + r.dot(q.S.inverse() * r));
}

// A in standard parameters: 1/2 m^T S^{-1} m + 1/2 log det S + D/2 log 2 pi.
inline double refLogPartition(const FullStandard& q) {
  const double d = static_cast<double>(q.m.size());
  return 0.5 * q.m.dot(q.S.inverse() * q.m) + 0.5 * std::log(q.S.determinant()) + 0.5 * d * log2pi();
}

}  // namespace pvi::test
