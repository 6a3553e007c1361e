#pragma once
// A FactorModel that forwards everything to another model: the base of the decorators that change
// one thing about a model (WithGaussianPrior, WithHyperparameters, CountingModel) and override
// only that.
#include "runtime/model/FactorModel.hpp"

namespace pvi {

class ForwardingModel : public FactorModel {
 public:
  // `model` must outlive this object.
  explicit ForwardingModel(const FactorModel& model) : model_(model) {}

  size_t globalDim() const override { return model_.globalDim(); }
  size_t hyperDim() const override { return model_.hyperDim(); }
  size_t numPartitions() const override { return model_.numPartitions(); }
  std::string partitionLabel(size_t partition) const override { return model_.partitionLabel(partition); }
  size_t localDim(size_t partition) const override { return model_.localDim(partition); }
  double partitionObservations(size_t partition) const override { return model_.partitionObservations(partition); }
  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override {
    return model_.priorLogDensity(z, theta, gradZ, gradTheta);
  }
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta, double* gradZ,
                             double* gradW, double* gradTheta) const override {
    return model_.partitionLogDensity(partition, z, w, theta, gradZ, gradW, gradTheta);
  }
  std::optional<GaussianPrior> gaussianPrior() const override { return model_.gaussianPrior(); }
  std::vector<std::string> globalNames() const override { return model_.globalNames(); }
  std::vector<bool> globalsWithProperPrior() const override { return model_.globalsWithProperPrior(); }

 protected:
  const FactorModel& inner() const { return model_; }

 private:
  const FactorModel& model_;
};

}  // namespace pvi
