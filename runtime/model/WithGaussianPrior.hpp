#pragma once
// A FactorModel that is another model with its prior declared exactly Gaussian: everything is
// forwarded, and gaussianPrior() returns the given N(mean, covariance). For models that cannot
// say so themselves (a CompiledModel: the factor ABI has no "the prior is Gaussian" query). The
// caller vouches for the prior: construct it from the model's own data (e.g. its prior sd), or
// from probeGaussianPrior (runtime/model/GaussianPriorProbe.hpp), which checks it.
#include <utility>

#include "runtime/model/ForwardingModel.hpp"

namespace pvi {

class WithGaussianPrior final : public ForwardingModel {
 public:
  // `model` must outlive this object.
  WithGaussianPrior(const FactorModel& model, GaussianPrior prior) : ForwardingModel(model), prior_(std::move(prior)) {}

  std::optional<GaussianPrior> gaussianPrior() const override { return prior_; }
  std::vector<bool> globalsWithProperPrior() const override { return std::vector<bool>(globalDim(), true); }

 private:
  GaussianPrior prior_;
};

}  // namespace pvi
