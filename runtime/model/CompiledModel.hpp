#pragma once
// A FactorModel backed by generated code (JIT or AOT) through the factor ABI, with its data.
#include <stdexcept>
#include <vector>

#include "runtime/abi/factor_abi.h"
#include "runtime/model/DataBlock.hpp"
#include "runtime/model/FactorModel.hpp"

namespace pvi {

// Raised when generated code reports an error (an index out of range in the data).
class ModelEvaluationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CompiledModel : public FactorModel {
 public:
  CompiledModel(const pvi_model_code& code, DataBlock shared, std::vector<DataBlock> partitions);

  size_t globalDim() const override { return dimZ_; }
  size_t hyperDim() const override { return dimTheta_; }
  size_t numPartitions() const override { return partitions_.size(); }
  size_t localDim(size_t partition) const override { return dimW_.at(partition); }

  // Thread-safe: each thread evaluates in its own workspace, which grows on the first calls
  // and is then reused, so evaluation does not allocate.
  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override;
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta, double* gradZ,
                             double* gradW, double* gradTheta) const override;

 private:
  double call(pvi_factor_fn fn, const double* z, const double* w, const double* theta, const void* const* part,
              double* gz, double* gw, double* gtheta) const;

  pvi_model_code code_;
  DataBlock shared_;
  std::vector<DataBlock> partitions_;
  size_t dimZ_ = 0, dimTheta_ = 0;
  std::vector<size_t> dimW_;
};

}  // namespace pvi
