#pragma once
// The stable optimisation parameterisation of the mean-field Gaussian, for a reparameterised ELBO
// optimiser: (m, logSd) with sd_i = exp(logSd_i) the standard deviations, v_i = sd_i^2.
//
// Gradient chain rule: the gradient of a scalar F with respect to (m, logSd), returned in a
// MeanFieldStable of the same shape, from
//   (dF/dm, dF/dsd):  dF/dlogSd_i = dF/dsd_i * sd_i.
//     For the reparameterised ELBO term f(z), z = m + sd .* eps, with g = grad f(z):
//       dF/dm = g, dF/dsd = g .* eps.
//   (dF/dm, dF/dv):   dF/dlogSd_i = dF/dv_i * 2 v_i   (v_i = exp(2 logSd_i)).
#include "runtime/families/MeanFieldGaussianParams.hpp"

namespace pvi {

MeanFieldStable toStable(const MeanFieldStandard& q);    // logSd = log(v) / 2; throws if q is not valid
MeanFieldStandard toStandard(const MeanFieldStable& q);  // v = exp(2 logSd); throws if q is not valid
Eigen::VectorXd standardDeviations(const MeanFieldStable& q);

MeanFieldStable stableGradientFromSd(const MeanFieldStable& at, const Eigen::VectorXd& dFdm,
                                     const Eigen::VectorXd& dFdsd);
MeanFieldStable stableGradientFromVariance(const MeanFieldStable& at, const Eigen::VectorXd& dFdm,
                                           const Eigen::VectorXd& dFdv);

}  // namespace pvi
