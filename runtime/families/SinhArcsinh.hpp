#pragma once
// The sinh-arcsinh transform of Jones and Pewsey (2009, Biometrika 96(4)), the shape a skewed
// q(w | z) gives each local latent (ConditionalGaussian.hpp):
//
//   u = T(x) = sinh((asinh(x) + skew) / tail),   x ~ N(0, 1),   tail > 0.
//
// skew = 0, tail = 1 is the identity (u is standard normal); skew > 0 leans u to the right,
// tail < 1 makes its tails heavier than the normal's and tail > 1 lighter. T is smooth and
// strictly increasing, so u has the closed-form density phi(x) / T'(x) at x = T^-1(u):
//
//   T^-1(u) = sinh(tail * asinh(u) - skew),
//   log T'(x) = log cosh(a) - log tail - log(1 + x^2) / 2,   a = (asinh(x) + skew) / tail.
//
// Its moments (E u, Var u, E log T'(x): the entropy's part) come from 200-point Gauss-Hermite
// quadrature, within 1e-10 of Jones and Pewsey's Bessel-function formulas for the mean and
// variance and of an adaptive quadrature for E log T' (2e-10 at tail 0.5) for tail in [0.5, 3]
// (tests/runtime/skewed_locals_test.cpp).
#include <Eigen/Core>

namespace pvi::sinh_arcsinh {

double transform(double x, double skew, double tail);
double inverse(double u, double skew, double tail);
double logDerivative(double x, double skew, double tail);  // log T'(x)

// Everything a reparameterised draw needs at x, from one asinh, one exp and one sqrt.
struct Point {
  double u = 0.0;            // T(x)
  double score = 0.0;        // d(-log density of u)/du at u: (x + d log T'(x)/dx) / T'(x); x for the identity
  double overSkew = 0.0;     // dT(x)/d skew = cosh(a) / tail
  double overLogTail = 0.0;  // dT(x)/d log(tail) = -a cosh(a)
};
Point at(double x, double skew, double tail);

struct Moments {
  double mean = 0.0;              // E[u]
  double variance = 1.0;          // Var[u]
  double expectedLogSlope = 0.0;  // E[log T'(x)]: u's entropy is the normal's plus this
};
Moments moments(double skew, double tail);

// Elementwise over a dw x n block of standard normals, with per-row skew and tail.
Eigen::MatrixXd transform(const Eigen::MatrixXd& x, const Eigen::VectorXd& skew, const Eigen::VectorXd& tail);
Eigen::MatrixXd inverse(const Eigen::MatrixXd& u, const Eigen::VectorXd& skew, const Eigen::VectorXd& tail);

}  // namespace pvi::sinh_arcsinh
