#pragma once
// The Hessian of a function from central differences of its exact gradient:
//   H e_i ~ (grad f(x + h_i e_i) - grad f(x - h_i e_i)) / (2 h_i),
// 2 D gradient evaluations, symmetrised. The caller chooses the steps h_i on the scale of f's
// curvature along each coordinate (for a log density, a fraction of the conditional standard
// deviation 1 / sqrt(-H_ii)): the error is O(h^2) in the third derivative, whatever the units.
// Throws std::domain_error when a gradient is not finite.
#include <Eigen/Core>
#include <functional>

namespace pvi::optim {

// grad f(x), written into the second argument.
using Gradient = std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>;

Eigen::MatrixXd finiteDifferenceHessian(const Gradient& gradient, const Eigen::VectorXd& x,
                                        const Eigen::VectorXd& steps);

// Steps for a first look when nothing is known of f's scale: 1e-4 max(1, |x_i|).
Eigen::VectorXd defaultHessianSteps(const Eigen::VectorXd& x);

}  // namespace pvi::optim
