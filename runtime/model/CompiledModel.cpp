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

CompiledModel::CompiledModel(const pvi_model_code& code, DataBlock shared, std::vector<DataBlock> partitions)
    : code_(code), shared_(std::move(shared)), partitions_(std::move(partitions)) {
  int64_t dims[3] = {0, 0, 0};
  code_.prior_dims(shared_.pointers(), nullptr, dims);
  dimZ_ = static_cast<size_t>(dims[0]);
  dimTheta_ = static_cast<size_t>(dims[2]);
  for (const DataBlock& p : partitions_) {
    code_.partition_dims(shared_.pointers(), p.pointers(), dims);
    dimW_.push_back(static_cast<size_t>(dims[1]));
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
