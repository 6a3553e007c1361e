#include "Predictive.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

namespace spam {
namespace {

double invLogit(double a) { return a >= 0.0 ? 1.0 / (1.0 + std::exp(-a)) : std::exp(a) / (1.0 + std::exp(a)); }

}  // namespace

GaussHermite gaussHermite(std::size_t n) {
  if (n == 0) throw std::invalid_argument("gaussHermite: no nodes");
  // Jacobi matrix of the monic probabilists' Hermite polynomials: zero diagonal, off-diagonal
  // sqrt(k); nodes are its eigenvalues, weights the squared first components of the unit
  // eigenvectors (times the total mass, 1 for N(0, 1)).
  const auto m = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(m, m);
  for (Eigen::Index k = 1; k < m; ++k) J(k, k - 1) = J(k - 1, k) = std::sqrt(static_cast<double>(k));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(J);
  GaussHermite rule;
  for (Eigen::Index i = 0; i < m; ++i) {
    rule.nodes.push_back(eig.eigenvalues()(i));
    rule.weights.push_back(eig.eigenvectors()(0, i) * eig.eigenvectors()(0, i));
  }
  return rule;
}

Activations activations(const Eigen::MatrixXd& X, const pvi::FullStandard& q) {
  const Eigen::Index d = X.cols();
  const Eigen::VectorXd beta = q.m.tail(d);
  // x~' S x~ = S_00 + 2 x' S_{beta,0} + x' S_{beta,beta} x.
  const Eigen::MatrixXd XS = X * q.S.bottomRightCorner(d, d);
  Activations a;
  a.mean = (X * beta).array() + q.m(0);
  a.variance = (XS.cwiseProduct(X).rowwise().sum() + 2.0 * X * q.S.col(0).tail(d)).array() + q.S(0, 0);
  return a;
}

Activations activations(const Eigen::MatrixXd& X, const pvi::MeanFieldStandard& q) {
  const Eigen::Index d = X.cols();
  Activations a;
  a.mean = (X * q.m.tail(d)).array() + q.m(0);
  a.variance = (X.cwiseProduct(X) * q.var.tail(d)).array() + q.var(0);
  return a;
}

Predictive predictive(const Activations& a, const GaussHermite& rule) {
  const Eigen::Index n = a.mean.size();
  Predictive p{Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sd = std::sqrt(std::max(0.0, a.variance(i)));
    for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
      const double act = a.mean(i) + sd * rule.nodes[k];
      p.p1(i) += rule.weights[k] * invLogit(act);
      p.p0(i) += rule.weights[k] * invLogit(-act);
    }
  }
  return p;
}

TestScore score(const Predictive& p, const Eigen::VectorXd& y) {
  TestScore s;
  const auto n = static_cast<double>(y.size());
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const bool spam = y(i) == 1.0;
    s.accuracy += ((p.p1(i) > 0.5) == spam) ? 1.0 : 0.0;
    s.nlpd -= std::log(spam ? p.p1(i) : p.p0(i));
  }
  s.accuracy /= n;
  s.nlpd /= n;
  return s;
}

template <class Standard>
TestScore testScore(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const Standard& q) {
  static const GaussHermite rule = gaussHermite(32);
  return score(predictive(activations(X, q), rule), y);
}

template TestScore testScore<pvi::FullStandard>(const Eigen::MatrixXd&, const Eigen::VectorXd&,
                                                const pvi::FullStandard&);
template TestScore testScore<pvi::MeanFieldStandard>(const Eigen::MatrixXd&, const Eigen::VectorXd&,
                                                     const pvi::MeanFieldStandard&);

}  // namespace spam
