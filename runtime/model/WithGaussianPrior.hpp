#pragma once
// A FactorModel that is another model with its prior declared exactly Gaussian: everything is
// forwarded, and gaussianPrior() returns the given N(mean, covariance). For models that cannot
// say so themselves (a CompiledModel: the factor ABI has no "the prior is Gaussian" query). The
// caller vouches for the prior: construct it from the model's own data (e.g. its prior sd), or
// from probeGaussianPrior (runtime/model/GaussianPriorProbe.hpp), which checks it.
#include <utility>

#include "runtime/model/FactorModel.hpp"

namespace pvi {

class WithGaussianPrior final : public FactorModel {
 public:
  // `model` must outlive this object.
  WithGaussianPrior(const FactorModel& model, GaussianPrior prior) : model_(model), prior_(std::move(prior)) {}

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
  std::optional<GaussianPrior> gaussianPrior() const override { return prior_; }
  std::vector<std::string> globalNames() const override { return model_.globalNames(); }
  std::vector<bool> globalsWithProperPrior() const override { return std::vector<bool>(globalDim(), true); }

 private:
  const FactorModel& model_;
  GaussianPrior prior_;
};

}  // namespace pvi
