#pragma once
// A partition's q(w | z) from joint draws of (z, w) on its tilted distribution: the Gaussian
// conditional of the draws' mean and covariance,
//
//   w | z ~ N(E[w] + C (z - E[z]), R),  C = Cov(w, z) Cov(z)^-1,  R = Cov(w) - C Cov(z, w),
//
// with R = diag(s) L L^T diag(s) (L unit-lower-triangular, or dropped with `correlated` off, R's
// diagonal kept). At EP's fixed point the tilted distribution's z-marginal has q(z)'s moments, so
// this is the site's estimate of the posterior of its locals jointly with the globals; they are
// computed inside the site and stay there, as the locals do.
#include <Eigen/Core>

#include "runtime/families/ConditionalGaussian.hpp"

namespace pvi::algorithms::ep {

// `joint`: one draw per column, z in the first `globalDim` rows. Needs more draws than
// dimensions; throws std::invalid_argument otherwise or when the draws' covariance is singular.
ConditionalGaussian conditionalFromDraws(const Eigen::MatrixXd& joint, Eigen::Index globalDim, bool correlated);

}  // namespace pvi::algorithms::ep
