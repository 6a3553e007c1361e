#include "runtime/model/CompiledModel.hpp"

#include <cmath>
#include <string>

namespace pvi {

namespace {

// Scratch that lives as long as the thread: the workspace of generated code, and gradient
// outputs the caller did not ask for.
struct ThreadScratch {
  std::vector<double> workspace;
  std::vector<double> unusedGradient;
};
thread_local ThreadScratch scratch;


}  // namespace

CompiledModel::CompiledModel(const pvi_model_code& code, const DataSchema& schema, DataBlock shared,
                             std::vector<DataBlock> partitions, std::vector<std::string> partitionLabels)
    : code_(code), shared_(std::move(shared)), partitions_(std::move(partitions)) {
  validate(schema, partitionLabels);
  int64_t dims[3] = {0, 0, 0};
  code_.prior_dims(shared_.pointers(), nullptr, dims);
  dimZ_ = static_cast<size_t>(dims[0]);
  dimTheta_ = static_cast<size_t>(dims[2]);
  for (const DataBlock& p : partitions_) {
    code_.partition_dims(shared_.pointers(), p.pointers(), dims);
    dimW_.push_back(static_cast<size_t>(dims[1]));
  }
}

namespace {

std::string kindName(bool isInt) { return isInt ? "an int" : "a real"; }

}  // namespace

void CompiledModel::validate(const DataSchema& schema, const std::vector<std::string>& labels) const {
  if (!partitions_.empty() && code_.partition_value == nullptr)
    throw DataError("the model has no partition, but data for " + std::to_string(partitions_.size()) +
                    " partitions were given");
  validateBlock(schema.shared, shared_, nullptr, code_.shared_counts, code_.shared_check, "data");
  for (size_t j = 0; j < partitions_.size(); ++j) {
    std::string label = j < labels.size() ? labels[j] : std::to_string(j + 1);
    validateBlock(schema.partition, partitions_[j], partitions_[j].pointers(), code_.partition_counts,
                  code_.partition_check, "data per " + schema.partitionName + " " + label);
  }
}

// `where` names the block in messages: "data" or "data per client 3".
void CompiledModel::validateBlock(const std::vector<DataField>& fields, const DataBlock& block,
                                  const void* const* partitionPtrs, pvi_counts_fn counts, pvi_check_fn check,
                                  const std::string& where) const {
  if (block.size() != fields.size()) {
    std::string names;
    for (const DataField& f : fields) names += (names.empty() ? "" : ", ") + f.name;
    throw DataError(where + ": expected " + std::to_string(fields.size()) + " variables (" + names + "), got " +
                    std::to_string(block.size()));
  }
  // Kinds and scalars first: the sizes of later variables are computed from earlier ints.
  for (size_t k = 0; k < fields.size(); ++k) {
    const DataField& f = fields[k];
    if (block.isInt(k) != f.isInt)
      throw DataError(where + ": '" + f.name + "' must be " + kindName(f.isInt) + " (" + f.type + ")");
    if (f.isScalar && block.length(k) != 1)
      throw DataError(where + ": '" + f.name + "' must be one value (" + f.type + "); got " +
                      std::to_string(block.length(k)));
  }
  std::vector<int64_t> expected(fields.size(), 0);
  counts(shared_.pointers(), partitionPtrs, expected.data());
  for (size_t k = 0; k < fields.size(); ++k) {
    if (expected[k] < 0)
      throw DataError(where + ": '" + fields[k].name + "' has a negative size (" + fields[k].type + ")");
    if (block.length(k) != static_cast<size_t>(expected[k]))
      throw DataError(where + ": '" + fields[k].name + "' has " + std::to_string(block.length(k)) +
                      " values; its type " + fields[k].type + " needs " + std::to_string(expected[k]));
  }
  for (;;) {
    int64_t status = 0, at[3] = {0, 0, 0};
    check(shared_.pointers(), partitionPtrs, scratch.workspace.data(),
          static_cast<int64_t>(scratch.workspace.size() * sizeof(double)), &status, at);
    if (status > 0) {
      scratch.workspace.resize((static_cast<size_t>(status) + sizeof(double) - 1) / sizeof(double));
      continue;
    }
    if (status == 0) return;
    const DataField& f = fields.at(static_cast<size_t>(at[0]));
    size_t i = static_cast<size_t>(at[1]);
    std::string value = f.isInt ? std::to_string(block.intAt(static_cast<size_t>(at[0]), i))
                                : std::to_string(block.realAt(static_cast<size_t>(at[0]), i));
    std::string element = f.isScalar ? "'" + f.name + "'" : "'" + f.name + "' element " + std::to_string(i + 1);
    const char* what = at[2] == 1 ? "is below its lower bound" : at[2] == 2 ? "is above its upper bound" : "is NaN";
    throw DataError(where + ": " + element + (at[2] == 3 ? "" : " = " + value) + " " + what + " (" + f.type + ")");
  }
}

double CompiledModel::call(pvi_factor_fn fn, const double* z, const double* w, const double* theta,
                           const void* const* part, double* gz, double* gw, double* gtheta) const {
  for (;;) {
    int64_t status = 0;
    double v = fn(z, w, theta, shared_.pointers(), part, gz, gw, gtheta, scratch.workspace.data(),
                  static_cast<int64_t>(scratch.workspace.size() * sizeof(double)), &status);
    if (status == 0) return v;
    if (status > 0) {  // the workspace is too small: grow it once and evaluate again
      scratch.workspace.resize((static_cast<size_t>(status) + sizeof(double) - 1) / sizeof(double));
      continue;
    }
    throw ModelEvaluationError("an index is out of range in the model's data (status " + std::to_string(status) + ")");
  }
}

double CompiledModel::priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const {
  if (gradZ == nullptr && gradTheta == nullptr)
    return call(code_.prior_value, z, nullptr, theta, nullptr, nullptr, nullptr, nullptr);
  // Gradient outputs the caller did not ask for go to scratch, one after the other.
  std::vector<double>& unused = scratch.unusedGradient;
  if (unused.size() < dimZ_ + dimTheta_) unused.resize(dimZ_ + dimTheta_);
  double* gz = gradZ ? gradZ : unused.data();
  double* gt = gradTheta ? gradTheta : unused.data() + dimZ_;
  return call(code_.prior_grad, z, nullptr, theta, nullptr, gz, nullptr, gt);
}

double CompiledModel::partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta,
                                          double* gradZ, double* gradW, double* gradTheta) const {
  const void* const* part = partitions_.at(partition).pointers();
  if (gradZ == nullptr && gradW == nullptr && gradTheta == nullptr)
    return call(code_.partition_value, z, w, theta, part, nullptr, nullptr, nullptr);
  size_t dw = dimW_[partition];
  std::vector<double>& unused = scratch.unusedGradient;
  if (unused.size() < dimZ_ + dw + dimTheta_) unused.resize(dimZ_ + dw + dimTheta_);
  double* gz = gradZ ? gradZ : unused.data();
  double* gw = gradW ? gradW : unused.data() + dimZ_;
  double* gt = gradTheta ? gradTheta : unused.data() + dimZ_ + dw;
  return call(code_.partition_grad, z, w, theta, part, gz, gw, gt);
}

}  // namespace pvi
