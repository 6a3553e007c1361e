#pragma once
// Coordinates of q' relative to the distribution a local optimisation starts from, so that a
// step means the same whatever the units of the data (issue: scale-free fitting).
//
// Full family, origin q0 = N(m0, L0 L0^T):
//   m = m0 + L0 u,   L = L0 B,   B lower triangular with positive diagonal,
// stored as a FullStable "white" = (u, log-Cholesky of B), so the origin is white = 0 and the
// diagonal of L is exp(log L0_ii + white_ii) exactly (a product of lower-triangular matrices).
// Mean-field family, origin N(m0, diag(sd0^2)):
//   m = m0 + sd0 .* u,   log sd = log sd0 + v,   white = (u, v).
// A unit step in u moves m by one standard deviation of q0 in every direction; a linear change
// of the units of z (z -> A z with A lower triangular or diagonal) leaves the white coordinates,
// and therefore Adam's iterates, unchanged.
//
// Gradients: with G = dF/dm and dF/dL (the lower triangle; entries above it are ignored),
//   dF/du = L0^T G,  dF/dB = lower(L0^T lower(dF/dL)),   then B's log-diagonal by the chain rule;
//   mean-field: dF/du = sd0 .* G,  dF/dv = dF/dlog sd.
#include <Eigen/Core>

#include "runtime/families/Gaussian.hpp"

namespace pvi::algorithms {

struct FullOrigin {
  Eigen::VectorXd m;
  Eigen::MatrixXd L;  // lower Cholesky factor of q0's covariance
  Eigen::VectorXd logDiagonal;
};
struct MeanFieldOrigin {
  Eigen::VectorXd m;
  Eigen::VectorXd sd;
  Eigen::VectorXd logSd;
};

FullOrigin whiteningOrigin(const FullStable& q0);
MeanFieldOrigin whiteningOrigin(const MeanFieldStable& q0);

// The white coordinates of the origin itself (all zeros, shaped like q0).
FullStable whiteOrigin(const FullOrigin& o);
MeanFieldStable whiteOrigin(const MeanFieldOrigin& o);

// The stable parameters of q' from its white coordinates.
FullStable fromWhite(const FullOrigin& o, const FullStable& white);
MeanFieldStable fromWhite(const MeanFieldOrigin& o, const MeanFieldStable& white);

// dF/d(white) from dF/dm and dF/dL (full) or dF/dsd (mean-field) at q' = fromWhite(o, white).
FullStable whiteGradient(const FullOrigin& o, const FullStable& white, const Eigen::VectorXd& dFdm,
                         const Eigen::MatrixXd& dFdL);
MeanFieldStable whiteGradient(const MeanFieldOrigin& o, const MeanFieldStable& white, const Eigen::VectorXd& dFdm,
                              const Eigen::VectorXd& dFdsd);

}  // namespace pvi::algorithms
