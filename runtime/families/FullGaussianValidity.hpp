#pragma once
// Validity checks for the full-covariance Gaussian family. Two notions, kept apart on purpose:
//
//   a factor (checkFactor): what a PVI site t_k may hold. Shapes agree (eta1 length D, eta2
//     D x D), every number is finite and eta2 is symmetric (relative asymmetry at most
//     detail::kSymmetryTolerance). It may be improper: the flat factor (all zeros) is a valid
//     factor, and so is a factor with an indefinite eta2.
//   a distribution (checkDistribution): additionally the precision P = -2 eta2 is positive
//     definite (its Cholesky factorisation succeeds with positive finite pivots) and the derived
//     mean and covariance are finite. Only a valid distribution may serve as q.
//
// Each check returns a Validity whose reason says what is wrong; none throws.
#include "runtime/families/FullGaussianParams.hpp"
#include "runtime/families/Validity.hpp"

#include <Eigen/Cholesky>
#include <string>

namespace pvi {

Validity checkFactor(const FullNatural& eta);
Validity checkDistribution(const FullNatural& eta);
Validity checkDistribution(const FullMean& mu);        // S = M - m m^T positive definite
Validity checkDistribution(const FullStandard& q);     // S symmetric positive definite
Validity checkDistribution(const FullStable& q);       // finite, exp of the log-diagonal finite and > 0

inline bool isValidFactor(const FullNatural& eta) { return checkFactor(eta).ok(); }
inline bool isValidDistribution(const FullNatural& eta) { return checkDistribution(eta).ok(); }
inline bool isValidDistribution(const FullMean& mu) { return checkDistribution(mu).ok(); }
inline bool isValidDistribution(const FullStandard& q) { return checkDistribution(q).ok(); }
inline bool isValidDistribution(const FullStable& q) { return checkDistribution(q).ok(); }

namespace detail {
// Checks `eta` as a factor and factorises P = -2 eta2 into `precision`; returns the reason it is
// not a distribution's natural parameters, or empty. Shared by the check and the conversions.
std::string factorisePrecision(const FullNatural& eta, Eigen::LLT<Eigen::MatrixXd>& precision);
// The same for a covariance S (shape, finiteness, symmetry, positive definiteness).
std::string factoriseCovariance(const Eigen::VectorXd& m, const Eigen::MatrixXd& S, const std::string& what,
                                Eigen::LLT<Eigen::MatrixXd>& covariance);
}  // namespace detail

}  // namespace pvi
