#pragma once
// A FactorModel backed by generated code (JIT or AOT) through the factor ABI, with its data.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/abi/factor_abi.h"
#include "runtime/model/DataBlock.hpp"
#include "runtime/model/DataSchema.hpp"
#include "runtime/model/FactorModel.hpp"
#include "runtime/model/MemoryLimit.hpp"
#include "runtime/model/ModelInfo.hpp"
#include "runtime/model/VariableLayout.hpp"

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

// Optional: where a data element came from, appended to bound and NaN messages, e.g.
// "y[5] from data_per_client.csv line 7, column 'y'" (runtime/data's BoundData::locator()).
// `partition` is kSharedBlock for the shared data; `element` is 0-based, column-major.
using DataLocator = std::function<std::string(size_t partition, size_t variable, size_t element)>;
inline constexpr size_t kSharedBlock = static_cast<size_t>(-1);

class CompiledModel : public FactorModel {
 public:
  // Validates the data against the schema (count, kind and size of every variable, bounds, no
  // NaN) before any evaluation, and refuses parameters and generated quantities too large for
  // memory (memoryLimit()) before allocating them; throws DataError. Partition labels name partitions in messages
  // (default: 1, 2, ...); a locator, when given, names where a bad element came from.
  // `seed` seeds the transformed data's _rng draws (a run's --seed).
  CompiledModel(const pvi_model_code& code, const DataSchema& schema, DataBlock shared,
                std::vector<DataBlock> partitions, std::vector<std::string> partitionLabels = {},
                DataLocator locator = {}, std::uint64_t seed = 0);

  // With the model's full description: also names, shapes and the output maps below.
  CompiledModel(const pvi_model_code& code, ModelInfo info, DataBlock shared, std::vector<DataBlock> partitions,
                std::vector<std::string> partitionLabels = {}, DataLocator locator = {}, std::uint64_t seed = 0);

  size_t globalDim() const override { return dimZ_; }
  size_t hyperDim() const override { return dimTheta_; }
  size_t numPartitions() const override { return partitions_.size(); }
  size_t localDim(size_t partition) const override { return dimW_.at(partition); }

  // Thread-safe: each thread evaluates in its own workspace, which grows on the first calls
  // and is then reused, so evaluation does not allocate.
  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override;
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta, double* gradZ,
                             double* gradW, double* gradTheta) const override;

  const ModelInfo& info() const { return info_; }
  // The data as the generated code reads them: those given, then the transformed data computed
  // from them (ModelInfo's data.transformedShared / transformedPartition).
  const DataBlock& sharedData() const { return shared_; }
  const DataBlock& partitionData(size_t partition) const { return partitions_.at(partition); }
  const std::vector<std::string>& partitionLabels() const { return labels_; }

  // Names of the unconstrained coordinates of z: the globals' element names ("beta.3"), a
  // simplex's first K - 1 elements for its K - 1 coordinates, a cholesky_factor_corr's elements
  // below the diagonal.
  std::vector<std::string> globalNames() const override;
  std::vector<bool> globalsWithProperPrior() const override;
  // How many of z's coordinates global variable v (in ModelInfo::globals order) has: its element
  // count, less one per vector of a simplex; K (K - 1) / 2 per cholesky_factor_corr[K].
  size_t unconstrainedCount(size_t v) const;

  // Concrete layouts (need the ModelInfo constructor; empty otherwise): the constrained globals
  // then hyperparameters, the shared generated quantities, and per partition its locals and
  // generated quantities.
  const VariableLayout& parameterLayout() const { return parameters_; }
  const VariableLayout& generatedSharedLayout() const { return generatedShared_; }
  const VariableLayout& localLayout(size_t partition) const { return locals_.at(partition); }
  const VariableLayout& generatedPartitionLayout(size_t partition) const { return generatedPartition_.at(partition); }

  // The ints that a variable's declared sizes read and where they came from, for messages:
  // "N_test = 921, H = 100000 from data.json" (the locator names the file; `partition` is
  // kSharedBlock for a shared variable, whose sizes read only shared data). Empty when its
  // sizes read no data.
  std::string sizeOrigins(const VariableInfo& variable, size_t partition) const;
  std::string partitionLabel(size_t partition) const override;  // as given, or 1, 2, ...
  // The length of the partition's longest one-dimensional data variable (its rows), or 1.
  double partitionObservations(size_t partition) const override;

  // The generated maps between spaces, laid out as the layouts above say. unconstrainGlobals
  // takes constrained globals then hyperparameters and returns z then theta; it throws
  // std::invalid_argument when a value is outside its variable's bounds.
  std::vector<double> constrainGlobals(const double* z, const double* theta) const;
  std::vector<double> unconstrainGlobals(const double* constrained) const;
  // A local's bounds, offset or multiplier may read the globals and hyperparameters: the local maps
  // take their unconstrained values z and theta too (null when the model has none).
  std::vector<double> constrainLocals(size_t partition, const double* z, const double* w, const double* theta) const;
  std::vector<double> unconstrainLocals(size_t partition, const double* z, const double* constrained,
                                        const double* theta) const;
  // The generated quantities; their _rng draws advance `rng` (seed one with pvi_rng_seed from
  // stdlib/kernels/rng/rng.h). Throw ModelEvaluationError when a quantity is outside its declared
  // bounds or an _rng function gets arguments outside its domain, naming which.
  std::vector<double> generateShared(const double* z, const double* theta, pvi_rng& rng) const;
  std::vector<double> generatePartition(size_t partition, const double* z, const double* w, const double* theta,
                                        pvi_rng& rng) const;

 private:
  std::vector<double> output(pvi_output_fn fn, pvi_dims_fn size, const double* z, const double* w, const double* theta,
                             const void* const* part) const;
  std::vector<double> runOutput(pvi_output_fn fn, size_t n, const double* z, const double* w, const double* theta,
                                const void* const* part) const;
  std::vector<double> generate(pvi_generate_fn fn, pvi_dims_fn size, const double* z, const double* w,
                               const double* theta, size_t partition, pvi_rng& rng) const;
  void validate() const;
  // Computes the transformed data (shared, then each partition's) and appends them to the data.
  void transformData();
  std::vector<double> transformed(pvi_generate_fn counts, pvi_generate_fn values, const std::vector<DataField>& fields,
                                  size_t partition, std::vector<size_t>& lengths) const;
  // Throws DataError when one of `vars`, whose dims start at shapes[*cursor], would need more
  // memory than `limit`; advances *cursor past them. `block` names them in the message.
  void checkSizes(const std::vector<VariableInfo>& vars, const char* block, const std::vector<double>& shapes,
                  size_t* cursor, size_t partition, const MemoryLimit& limit) const;
  void validateBlock(const std::vector<DataField>& fields, const DataBlock& block, const void* const* partitionPtrs,
                     pvi_counts_fn counts, pvi_check_fn check, const std::string& where, size_t blockIndex) const;
  // One factor function; `partition` names the partition in messages (null for the prior).
  double call(pvi_factor_fn fn, const double* z, const double* w, const double* theta, const void* const* part,
              double* gz, double* gw, double* gtheta, const std::string* partition = nullptr) const;
  // "'y ~ normal(mu, sigma);' at 12:5": statement `site` (ModelInfo::statements).
  std::string statementText(size_t site) const;
  std::string indexErrorText(int64_t status, const std::string& where = "") const;

  pvi_model_code code_;
  ModelInfo info_;
  std::vector<std::string> labels_;
  std::vector<std::string> printContexts_;  // "district 12": what reject messages name (pvi_print_context)
  DataLocator locator_;
  std::uint64_t seed_ = 0;  // of the transformed data's draws
  VariableLayout parameters_, generatedShared_;
  std::vector<VariableLayout> locals_, generatedPartition_;
  DataBlock shared_;
  std::vector<DataBlock> partitions_;
  size_t dimZ_ = 0, dimTheta_ = 0;
  std::vector<size_t> dimW_;
};

}  // namespace pvi
