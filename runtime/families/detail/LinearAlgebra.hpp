#pragma once
// Small linear-algebra helpers shared by the Gaussian families. Internal to runtime/families.
//
// Every solve and log-determinant goes through a Cholesky factorisation (Eigen::LLT). Eigen's
// LLT reads only the lower triangle, and a NaN pivot does not make it fail, so the helpers check
// finiteness themselves.
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string>

namespace pvi::detail {

// Where the first non-finite entry is, as text ("(i, j)" or "[i]"), or empty when all finite.
std::string firstNonFinite(const Eigen::MatrixXd& a);
std::string firstNonFinite(const Eigen::VectorXd& v);

// Largest |a(i,j) - a(j,i)| relative to max(1, max|a|); 0 for an exactly symmetric matrix.
double relativeAsymmetry(const Eigen::MatrixXd& a);

// Tolerance on relativeAsymmetry accepted by the validity checks. Products such as A A^T are
// symmetric only up to rounding (about D * machine epsilon relative); 1e-12 admits that for any
// practical D while rejecting matrices that are genuinely not symmetric.
inline constexpr double kSymmetryTolerance = 1e-12;

// (a + a^T) / 2. Exactly symmetric, because floating-point addition commutes.
Eigen::MatrixXd symmetrised(const Eigen::MatrixXd& a);

// Factorises `a` into `llt`. Empty when `a` is square, finite and positive definite (the Cholesky
// factorisation succeeds with positive finite pivots and a finite factor); otherwise the reason,
// naming `what`. Eigen's LLT reads only the lower triangle of `a`.
std::string choleskyReason(const Eigen::MatrixXd& a, const std::string& what, Eigen::LLT<Eigen::MatrixXd>& llt);

// choleskyReason without keeping the factor.
std::string positiveDefiniteReason(const Eigen::MatrixXd& a, const std::string& what);

// log det A = 2 sum_i log L_ii, from A = L L^T.
double logDet(const Eigen::LLT<Eigen::MatrixXd>& llt);

// A^{-1} from A = L L^T (by solving against the identity), symmetrised. Used only where the
// inverse itself is the result wanted (a covariance from a precision, or back).
Eigen::MatrixXd inverse(const Eigen::LLT<Eigen::MatrixXd>& llt);

}  // namespace pvi::detail
