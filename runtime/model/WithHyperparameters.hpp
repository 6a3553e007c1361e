#pragma once
// A FactorModel that is another model with its hyperparameters theta supplied from outside:
// it presents none of its own (hyperDim() == 0) and evaluates the model at the current theta,
// which the owner changes between evaluations (setTheta; not while a fit is evaluating it). PVI
// learns theta this way (Fit.cpp): its clients see a model without hyperparameters, and after
// every round the driver moves theta and sets it here.
#include <utility>
#include <vector>

#include "runtime/model/ForwardingModel.hpp"

namespace pvi {

class WithHyperparameters final : public ForwardingModel {
 public:
  // `model` must outlive this object; theta has model.hyperDim() entries.
  WithHyperparameters(const FactorModel& model, std::vector<double> theta)
      : ForwardingModel(model), theta_(std::move(theta)) {}

  void setTheta(std::vector<double> theta) { theta_ = std::move(theta); }
  const std::vector<double>& theta() const { return theta_; }

  size_t hyperDim() const override { return 0; }
  double priorLogDensity(const double* z, const double*, double* gradZ, double*) const override {
    return inner().priorLogDensity(z, theta_.data(), gradZ, nullptr);
  }
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double*, double* gradZ,
                             double* gradW, double*) const override {
    return inner().partitionLogDensity(partition, z, w, theta_.data(), gradZ, gradW, nullptr);
  }
  // The model's prior may depend on theta: it is not declared Gaussian here.
  std::optional<GaussianPrior> gaussianPrior() const override { return std::nullopt; }

 private:
  std::vector<double> theta_;
};

}  // namespace pvi
