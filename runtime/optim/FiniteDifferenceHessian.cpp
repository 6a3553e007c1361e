#include "runtime/optim/FiniteDifferenceHessian.hpp"

#include <stdexcept>
#include <string>

namespace pvi::optim {

Eigen::MatrixXd finiteDifferenceHessian(const Gradient& gradient, const Eigen::VectorXd& x,
                                        const Eigen::VectorXd& steps) {
  const Eigen::Index d = x.size();
  if (steps.size() != d) throw std::invalid_argument("finiteDifferenceHessian: one step per coordinate");
  Eigen::MatrixXd H(d, d);
  Eigen::VectorXd point = x, plus(d), minus(d);
  for (Eigen::Index i = 0; i < d; ++i) {
    const double h = steps[i];
    if (!(h > 0.0)) throw std::invalid_argument("finiteDifferenceHessian: steps must be positive");
    point[i] = x[i] + h;
    gradient(point, plus);
    point[i] = x[i] - h;
    gradient(point, minus);
    point[i] = x[i];
    if (!plus.allFinite() || !minus.allFinite())
      throw std::domain_error("the gradient is not finite within " + std::to_string(h) + " of coordinate " +
                              std::to_string(i + 1) + " of the point");
    H.col(i) = (plus - minus) / (2.0 * h);
  }
  return 0.5 * (H + H.transpose());
}

Eigen::VectorXd defaultHessianSteps(const Eigen::VectorXd& x) { return 1e-4 * x.cwiseAbs().cwiseMax(1.0); }

}  // namespace pvi::optim
