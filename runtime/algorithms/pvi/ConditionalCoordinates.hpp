#pragma once
// White coordinates of a partition's q(w | z) (families/ConditionalGaussian.hpp) relative to the
// conditional a local optimisation starts from, so that a step means the same whatever the units
// of w and z (the companion of WhitenedCoordinates.hpp for q(z)). With the start q0 anchored at
// q(z)'s mean, s0 its sds and Lz0 the root of q(z) at the start (z - m = Lz0 eps):
//
//   mean = mean0 + s0 .* u,        log s = log s0 + v,
//   C    = C0 + diag(s0) K Lz0^-1  (a unit of K moves w by one of its sds per sd of z),
//   G    = G0 + K_G Lz0^-1         (a unit of K_G scales w's sd by e per sd of z),
//   L    = L0 + (strictly lower entries, unchanged units: L is dimensionless),
//   skew = skew0 + k,  log tail = log tail0 + t   (a shape's: dimensionless),
//
// flattened as [u, v, K, K_G (column-major), L's strictly lower entries (column by column), k, t],
// the parts the conditional has. The origin is the zero vector. Gradients by the chain rule:
//   dF/du = s0 .* dF/dmean,  dF/dv = s .* dF/ds,  dF/dK = diag(s0) dF/dC Lz0^-T,
//   dF/dK_G = dF/dG Lz0^-T.
#include <Eigen/Core>

#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/ConditionalGaussian.hpp"

namespace pvi::algorithms {

struct ConditionalOrigin {
  ConditionalGaussian q0;  // anchored at q(z)'s mean at the start
  Eigen::VectorXd logSd;
  Eigen::MatrixXd zRoot;  // Lz0 (full family), or empty
  Eigen::VectorXd zSd;    // or the sds of a mean-field q(z)
  Eigen::Index size = 0;  // length of the flat white vector
};

ConditionalOrigin conditionalOrigin(const ConditionalGaussian& q0, const Eigen::MatrixXd& zRoot);
ConditionalOrigin conditionalOrigin(const ConditionalGaussian& q0, const Eigen::VectorXd& zSd);

// q(w | z) at the white coordinates, anchored at `anchor` (the current mean of q(z)).
ConditionalGaussian fromWhite(const ConditionalOrigin& o, const Eigen::Ref<const Eigen::VectorXd>& white,
                              const Eigen::VectorXd& anchor);

// dF/d(white) from the gradient over the conditional's parameters at `at` = fromWhite(o, white).
void whiteGradient(const ConditionalOrigin& o, const ConditionalGaussian& at, const estimation::LocalGradient& g,
                   Eigen::Ref<Eigen::VectorXd> out);

}  // namespace pvi::algorithms
