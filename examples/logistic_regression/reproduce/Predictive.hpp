#pragma once
// The posterior predictive of logistic regression under a Gaussian q(alpha, beta), and the test
// scores. With x~ = (1, x), the activation a = x~' z is 1-D Gaussian under q(z) = N(m, S), with
// mean x~' m and variance x~' S x~ (mean-field: sum_i x~_i^2 S_ii), so
//   p(y = 1 | x) = E_q[inv_logit(a)] = E_{u ~ N(0,1)}[inv_logit(mean + sd u)]
// is a 1-D integral, computed by Gauss-Hermite quadrature (deterministic, no Monte Carlo).
// 1 - p is integrated the same way (inv_logit(-a)) instead of subtracted, so log(1 - p) keeps its
// precision when p is near 1.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "runtime/families/Gaussian.hpp"

namespace spam {

// Nodes and weights for E_{u ~ N(0,1)}[f(u)] ~= sum_i w_i f(u_i), exact for polynomials of degree
// < 2n (Golub-Welsch on the probabilists' Hermite recurrence; the weights sum to 1).
struct GaussHermite {
  std::vector<double> nodes, weights;
};
GaussHermite gaussHermite(std::size_t n);

struct TestScore {
  double accuracy = 0.0;  // fraction of test e-mails with (p > 0.5) == y
  double nlpd = 0.0;      // -mean log p(y_n | x_n)
};

// Activation means and variances of the rows of X (without the leading 1) under q.
struct Activations {
  Eigen::VectorXd mean, variance;
};
Activations activations(const Eigen::MatrixXd& X, const pvi::FullStandard& q);
Activations activations(const Eigen::MatrixXd& X, const pvi::MeanFieldStandard& q);

// p(y = 1 | x_n) and p(y = 0 | x_n) for every row, by quadrature.
struct Predictive {
  Eigen::VectorXd p1, p0;
};
Predictive predictive(const Activations& a, const GaussHermite& rule);

TestScore score(const Predictive& p, const Eigen::VectorXd& y);

// All of the above with a 32-node rule.
template <class Standard>
TestScore testScore(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const Standard& q);

}  // namespace spam
