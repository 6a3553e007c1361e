#pragma once
// A FactorModel that is another model with its hyperparameters theta supplied from outside:
// it presents none of its own (hyperDim() == 0) and evaluates the model at the current theta,
// which the owner changes between evaluations (setTheta; not while a fit is evaluating it). PVI
// learns theta this way (Fit.cpp): its clients see a model without hyperparameters, and after
// every round the driver moves theta and sets it here.
#include <utility>
#include <vector>

#include "runtime/model/FactorModel.hpp"

namespace pvi {

class WithHyperparameters final : public FactorModel {
 public:
  // `model` must outlive this object; theta has model.hyperDim() entries.
  WithHyperparameters(const FactorModel& model, std::vector<double> theta) : model_(model), theta_(std::move(theta)) {}

  void setTheta(std::vector<double> theta) { theta_ = std::move(theta); }
  const std::vector<double>& theta() const { return theta_; }

  size_t globalDim() const override { return model_.globalDim(); }
  size_t numPartitions() const override { return model_.numPartitions(); }
  std::string partitionLabel(size_t partition) const override { return model_.partitionLabel(partition); }
  size_t localDim(size_t partition) const override { return model_.localDim(partition); }
  double partitionObservations(size_t partition) const override { return model_.partitionObservations(partition); }
  double priorLogDensity(const double* z, const double*, double* gradZ, double*) const override {
    return model_.priorLogDensity(z, theta_.data(), gradZ, nullptr);
  }
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double*, double* gradZ,
                             double* gradW, double*) const override {
    return model_.partitionLogDensity(partition, z, w, theta_.data(), gradZ, gradW, nullptr);
  }
  std::vector<std::string> globalNames() const override { return model_.globalNames(); }
  std::vector<bool> globalsWithProperPrior() const override { return model_.globalsWithProperPrior(); }

 private:
  const FactorModel& model_;
  std::vector<double> theta_;
};

}  // namespace pvi
