#pragma once
// Logistic regression on the spambase split written by hand with Eigen: the same FactorModel as
// the compiled examples/logistic_regression/model.pvi (z = (alpha, beta), prior N(0, prior_sd^2)
// on each, y ~ bernoulli_logit(alpha + X beta) per client, normalising constants included), as
// the reference for the compiled model's posterior (tests) and speed (benchmarks).
#include <Eigen/Core>
#include <vector>

#include "SpamData.hpp"
#include "Splits.hpp"
#include "runtime/model/FactorModel.hpp"

namespace spam {

class EigenLogisticModel final : public pvi::FactorModel {
 public:
  EigenLogisticModel(const SpamData& data, const Split& split);

  size_t globalDim() const override { return static_cast<size_t>(d_) + 1; }
  size_t numPartitions() const override { return X_.size(); }
  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override;
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta, double* gradZ,
                             double* gradW, double* gradTheta) const override;
  std::optional<pvi::GaussianPrior> gaussianPrior() const override;

 private:
  int d_;
  double priorSd_;
  std::vector<Eigen::MatrixXd> X_;  // per client, N_k x D
  std::vector<Eigen::VectorXd> y_;
};

}  // namespace spam
