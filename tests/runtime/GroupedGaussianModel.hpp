#pragma once
// A Gaussian random-intercept model with a learned scale, for tests of hyperparameter learning
// and of invariance to how the data are split:
//
//   mu ~ N(0, 10^2),  w_g ~ N(mu, tau^2) for groups g,  y_gk ~ N(w_g, 1),  theta = log tau (hyper,
//   no prior: empirical Bayes),
//
// whose groups are dealt to partitions. Given theta the joint posterior of (mu, w) is Gaussian
// with the w_g conditionally independent given mu; logEvidence is log p(y | theta) in closed form.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <iostream>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/model/FactorModel.hpp"

namespace pvi::test {

class GroupedGaussian final : public FactorModel {
 public:
  // groups[g] = observations of group g; partitions[j] = the groups of partition j, in order.
  GroupedGaussian(std::vector<std::vector<double>> groups, std::vector<std::vector<int>> partitions)
      : groups_(std::move(groups)), partitions_(std::move(partitions)) {}

  size_t globalDim() const override { return 1; }
  size_t hyperDim() const override { return 1; }
  size_t numPartitions() const override { return partitions_.size(); }
  size_t localDim(size_t j) const override { return partitions_[j].size(); }
  double priorLogDensity(const double* z, const double*, double* gz, double* gt) const override {
    if (gz) gz[0] = -z[0] / 100.0;
    if (gt) gt[0] = 0.0;  // no prior on theta: empirical Bayes
    return -0.5 * z[0] * z[0] / 100.0 - std::log(10.0) - 0.5 * std::log(2 * std::numbers::pi);
  }
  double partitionLogDensity(size_t j, const double* z, const double* w, const double* theta, double* gz, double* gw,
                             double* gt) const override {
    const double tau = std::exp(theta[0]);
    double value = 0.0, dmu = 0.0, dt = 0.0;
    for (size_t k = 0; k < partitions_[j].size(); ++k) {
      const double r = (w[k] - z[0]) / tau;
      value += -0.5 * r * r - theta[0] - 0.5 * std::log(2 * std::numbers::pi);
      double dw = -r / tau;
      dmu += r / tau;
      dt += r * r - 1.0;
      for (double y : groups_[static_cast<size_t>(partitions_[j][k])]) {
        value += -0.5 * (y - w[k]) * (y - w[k]) - 0.5 * std::log(2 * std::numbers::pi);
        dw += y - w[k];
      }
      if (gw) gw[k] = dw;
    }
    if (gz) gz[0] = dmu;
    if (gt) gt[0] = dt;
    return value;
  }
  const std::vector<std::vector<int>>& partitions() const { return partitions_; }

  // log p(y | theta): y ~ N(0, I + tau^2 B B^T + 100 1 1^T).
  double logEvidence(double theta) const {
    std::vector<double> y;
    std::vector<int> group;
    for (size_t g = 0; g < groups_.size(); ++g)
      for (double v : groups_[g]) {
        y.push_back(v);
        group.push_back(static_cast<int>(g));
      }
    const auto n = static_cast<Eigen::Index>(y.size());
    const double t2 = std::exp(2 * theta);
    Eigen::MatrixXd S = Eigen::MatrixXd::Identity(n, n).array() + 100.0;
    for (Eigen::Index a = 0; a < n; ++a)
      for (Eigen::Index b = 0; b < n; ++b)
        if (group[static_cast<size_t>(a)] == group[static_cast<size_t>(b)]) S(a, b) += t2;
    const Eigen::LLT<Eigen::MatrixXd> llt(S);
    const Eigen::VectorXd r = llt.matrixL().solve(Eigen::Map<const Eigen::VectorXd>(y.data(), n));
    const double logDet = 2.0 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    return -0.5 * (r.squaredNorm() + logDet + static_cast<double>(n) * std::log(2 * std::numbers::pi));
  }
  // The posterior of mu given theta: mean and sd (w integrated out: y_g-bar-based closed form via
  // the joint precision).
  std::pair<double, double> muPosterior(double theta) const {
    const auto G = static_cast<Eigen::Index>(groups_.size());
    const double t2 = std::exp(2 * theta);
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(G + 1, G + 1);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(G + 1);
    P(0, 0) = 1.0 / 100.0;
    for (Eigen::Index g = 0; g < G; ++g) {
      const auto& y = groups_[static_cast<size_t>(g)];
      P(0, 0) += 1.0 / t2;
      P(0, g + 1) = P(g + 1, 0) = -1.0 / t2;
      P(g + 1, g + 1) = 1.0 / t2 + static_cast<double>(y.size());
      for (double v : y) b[g + 1] += v;
    }
    const Eigen::MatrixXd C = P.inverse();
    return {(C * b)[0], std::sqrt(C(0, 0))};
  }

 private:
  std::vector<std::vector<double>> groups_;
  std::vector<std::vector<int>> partitions_;
};

inline std::vector<std::vector<double>> someGroups(int G, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  std::vector<std::vector<double>> groups;
  for (int g = 0; g < G; ++g) {
    const double w = 1.5 + 2.5 * n(rng);
    std::vector<double> y;
    for (int k = 0; k < 2 + g % 3; ++k) y.push_back(w + n(rng));
    groups.push_back(y);
  }
  return groups;
}

inline double goldenMax(const std::function<double(double)>& f, double a, double b) {
  const double r = (std::sqrt(5.0) - 1.0) / 2.0;
  double c = b - r * (b - a), d = a + r * (b - a);
  while (b - a > 1e-9) {
    if (f(c) > f(d)) {
      b = d;
    } else {
      a = c;
    }
    c = b - r * (b - a);
    d = a + r * (b - a);
  }
  return 0.5 * (a + b);
}

// Replicate runs (rows) of error quantities (columns): each column's mean error is within 5
// standard errors of zero (plus 1e-3 for runs that agree to rounding), and no run is off by
// `bound` or more.
inline void expectUnbiasedAndSmall(const Eigen::MatrixXd& errs, double bound, const std::string& label) {
  const auto R = static_cast<double>(errs.rows());
  const Eigen::RowVectorXd mean = errs.colwise().mean();
  const Eigen::RowVectorXd se =
      ((errs.rowwise() - mean).array().square().colwise().sum() / (R - 1.0)).sqrt() / std::sqrt(R);
  std::cout << "[measured] " << label << ": mean errors " << mean << " +- " << se << ", largest "
            << errs.cwiseAbs().colwise().maxCoeff() << "\n";
  for (Eigen::Index k = 0; k < errs.cols(); ++k) {
    EXPECT_LE(std::abs(mean(k)), 5.0 * se(k) + 1e-3) << label << ", quantity " << k;
    EXPECT_LT(errs.col(k).cwiseAbs().maxCoeff(), bound) << label << ", quantity " << k;
  }
}

}  // namespace pvi::test
