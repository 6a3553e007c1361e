#pragma once
// The whole model as one density over a flat vector, for samplers and for checks of an
// approximation:
//
//   x = (z, w_1, ..., w_J, theta),   log p(x, y) = log p(z, theta) + sum_j log p(w_j, y_j | z, theta),
//
// z the unconstrained globals, w_j partition j's unconstrained locals, theta the unconstrained
// hyperparameters (all log-Jacobians included, as FactorModel's factors have them), with the
// gradient over all of x. Fixed hyperparameters can be held out instead (HyperParameters::Fixed):
// then x = (z, w_1, ..., w_J) and theta is given once.
//
// Thread-safe when the FactorModel is: each thread has its own scratch space.
#include <cstddef>
#include <string>
#include <vector>

#include "runtime/model/FactorModel.hpp"

namespace pvi {

class JointDensity {
 public:
  enum class HyperParameters { Sampled, Fixed };

  // `model` must outlive this object. With Fixed, `theta` (model.hyperDim() entries; empty means
  // zeros) stays fixed and x has no theta block.
  explicit JointDensity(const FactorModel& model, HyperParameters hyper = HyperParameters::Sampled,
                        std::vector<double> theta = {});

  std::size_t dim() const { return dim_; }
  std::size_t globalOffset() const { return 0; }
  std::size_t localOffset(std::size_t partition) const { return localOffsets_.at(partition); }
  std::size_t hyperOffset() const { return hyperOffset_; }  // == dim() when theta is fixed
  bool samplesHyperParameters() const { return hyper_ == HyperParameters::Sampled; }
  const FactorModel& model() const { return model_; }

  // log p(x, y); when `gradient` is not null it receives d/dx (dim() entries).
  double logDensity(const double* x, double* gradient) const;

  // "z.1" ... as FactorModel::globalNames, then "w.<partition>.<k>", then "theta.<k>".
  std::vector<std::string> names() const;

 private:
  const FactorModel& model_;
  HyperParameters hyper_;
  std::vector<double> fixedTheta_;
  std::vector<std::size_t> localOffsets_;
  std::size_t hyperOffset_ = 0;
  std::size_t dim_ = 0;
};

}  // namespace pvi
