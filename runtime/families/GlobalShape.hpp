#pragma once
// A skewed q(z): the sinh-arcsinh shape (SinhArcsinh.hpp) on each standardised coordinate of a
// Gaussian q(z) with root L (its Cholesky factor, or diag(sd) for the mean-field family),
//
//   z = m + L T(eps),   T_k(x) = sinh((asinh(x) + skew_k) / tail_k),   eps ~ N(0, I),
//   log q(z) = log N(eps; 0, I) - log |det L| - sum_k log T_k'(eps_k),
//   H(q(z)) = H(N(m, L L^T)) + sum_k E[log T_k'(eps_k)].
//
// Why: a posterior scale that few groups inform (a group sd over 8 groups, the sd of random slopes
// that few observations see) is skewed on its unconstrained (log) scale; a Gaussian q(z) fitted by
// reverse KL then puts too little mass in the long tail, too narrow and off-centre (measured in
// docs/fitting.md, "Skewed globals"). m and L are then the location and root, not the mean and
// covariance root.
//
// Gradients by sticking the landing: -grad_z log q(z) = L^-T h'(u) with u = T(eps) and h = -log of
// u's density (Point::score; h'(u) = u without a shape), so H's gradients over m and L are the
// Gaussian's with eps replaced by h'(u) in their first factor and by u in the second; over skew_k
// and log tail_k, with t the per-draw gradient over z of the rest of the ELBO,
// E[((L^T t)_k + h'(u_k)) dT_k/d(skew_k, log tail_k)].
#include <Eigen/Core>

namespace pvi {

struct GlobalShape {
  Eigen::VectorXd skew;  // D, or empty: q(z) is Gaussian
  Eigen::VectorXd tail;  // D, all > 0

  bool empty() const { return skew.size() == 0; }
  static GlobalShape identity(Eigen::Index d) { return {Eigen::VectorXd::Zero(d), Eigen::VectorXd::Ones(d)}; }
};

// What a draw z = m + L u needs, per column of eps (each D x n).
struct ShapedDraws {
  Eigen::MatrixXd u;            // T(eps)
  Eigen::MatrixXd score;        // h'(u)
  Eigen::MatrixXd overSkew;     // dT/d skew
  Eigen::MatrixXd overLogTail;  // dT/d log tail
};
ShapedDraws shapedDraws(const GlobalShape& shape, const Eigen::MatrixXd& eps);

// sum_k log T_k'(eps_k) per column of eps (what log q(z) subtracts from the Gaussian's).
Eigen::VectorXd logSlopeColumns(const GlobalShape& shape, const Eigen::MatrixXd& eps);
// sum_k E[log T_k'(eps_k)]: what H(q(z)) adds to the Gaussian's (0 without a shape).
double shapeEntropy(const GlobalShape& shape);
// E[T(eps)] and Var[T(eps)] per coordinate (0 and 1 without a shape).
Eigen::VectorXd shapeMeans(const GlobalShape& shape, Eigen::Index d);
Eigen::VectorXd shapeVariances(const GlobalShape& shape, Eigen::Index d);

}  // namespace pvi
