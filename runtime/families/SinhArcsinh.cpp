#include "runtime/families/SinhArcsinh.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

namespace pvi::sinh_arcsinh {
namespace {

double angle(double x, double skew, double tail) { return (std::asinh(x) + skew) / tail; }

// Nodes and weights of the probabilists' Gauss-Hermite rule (weight exp(-x^2 / 2) / sqrt(2 pi)),
// by Golub and Welsch: the nodes are the eigenvalues of the Jacobi matrix of the Hermite
// polynomials (off-diagonal sqrt(k)), the weights the squared first components of its eigenvectors.
struct GaussHermite {
  Eigen::VectorXd nodes, weights;
  GaussHermite() {
    constexpr int n = 200;
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
    for (int k = 1; k < n; ++k) J(k, k - 1) = J(k - 1, k) = std::sqrt(static_cast<double>(k));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(J);
    nodes = eig.eigenvalues();
    weights = eig.eigenvectors().row(0).transpose().array().square();
  }
};
const GaussHermite& rule() {
  static const GaussHermite r;
  return r;
}

}  // namespace

double transform(double x, double skew, double tail) { return std::sinh(angle(x, skew, tail)); }
double inverse(double u, double skew, double tail) { return std::sinh(tail * std::asinh(u) - skew); }

double logDerivative(double x, double skew, double tail) {
  const double a = angle(x, skew, tail);
  // log cosh(a) without overflow: |a| + log1p(exp(-2|a|)) - log 2.
  const double logCosh = std::abs(a) + std::log1p(std::exp(-2.0 * std::abs(a))) - std::numbers::ln2;
  return logCosh - std::log(tail) - 0.5 * std::log1p(x * x);
}

Point at(double x, double skew, double tail) {
  const double a = angle(x, skew, tail);
  const double e = std::exp(a), ie = 1.0 / e;
  const double sinh = 0.5 * (e - ie), cosh = 0.5 * (e + ie);
  const double root = std::sqrt(1.0 + x * x);
  const double slope = cosh / (tail * root);  // T'(x)
  const double dLogSlope = (sinh / cosh) / (tail * root) - x / (root * root);
  return {sinh, (x + dLogSlope) / slope, cosh / tail, -a * cosh};
}

Moments moments(double skew, double tail) {
  const GaussHermite& r = rule();
  double m1 = 0.0, m2 = 0.0, logSlope = 0.0;
  for (Eigen::Index k = 0; k < r.nodes.size(); ++k) {
    const double u = transform(r.nodes[k], skew, tail);
    m1 += r.weights[k] * u;
    m2 += r.weights[k] * u * u;
    logSlope += r.weights[k] * logDerivative(r.nodes[k], skew, tail);
  }
  return {m1, m2 - m1 * m1, logSlope};
}

Eigen::MatrixXd transform(const Eigen::MatrixXd& x, const Eigen::VectorXd& skew, const Eigen::VectorXd& tail) {
  Eigen::MatrixXd u(x.rows(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i) u(i, j) = transform(x(i, j), skew[i], tail[i]);
  return u;
}

Eigen::MatrixXd inverse(const Eigen::MatrixXd& u, const Eigen::VectorXd& skew, const Eigen::VectorXd& tail) {
  Eigen::MatrixXd x(u.rows(), u.cols());
  for (Eigen::Index j = 0; j < u.cols(); ++j)
    for (Eigen::Index i = 0; i < u.rows(); ++i) x(i, j) = inverse(u(i, j), skew[i], tail[i]);
  return x;
}

}  // namespace pvi::sinh_arcsinh
