#pragma once
// A FactorModel backed by generated code (JIT or AOT) through the factor ABI, with its data.
#include <stdexcept>
#include <vector>

#include "runtime/abi/factor_abi.h"
#include "runtime/model/DataBlock.hpp"
#include "runtime/model/DataSchema.hpp"
#include "runtime/model/FactorModel.hpp"

namespace pvi {

// Raised when generated code reports an error (an index out of range in the data).
class ModelEvaluationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raised when data do not match the model's data blocks; the message names the block, the
// partition, the variable and the element.
class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CompiledModel : public FactorModel {
 public:
  // Validates the data against the schema (count, kind and size of every variable, bounds, no
  // NaN) before any evaluation; throws DataError. Partition labels name partitions in messages
  // (default: 1, 2, ...).
  CompiledModel(const pvi_model_code& code, const DataSchema& schema, DataBlock shared,
                std::vector<DataBlock> partitions, std::vector<std::string> partitionLabels = {});

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
  void validate(const DataSchema& schema, const std::vector<std::string>& labels) const;
  void validateBlock(const std::vector<DataField>& fields, const DataBlock& block, const void* const* partitionPtrs,
                     pvi_counts_fn counts, pvi_check_fn check, const std::string& where) const;
  double call(pvi_factor_fn fn, const double* z, const double* w, const double* theta, const void* const* part,
              double* gz, double* gw, double* gtheta) const;

  pvi_model_code code_;
  DataBlock shared_;
  std::vector<DataBlock> partitions_;
  size_t dimZ_ = 0, dimTheta_ = 0;
  std::vector<size_t> dimW_;
};

}  // namespace pvi
