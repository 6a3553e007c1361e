#pragma once
// A FactorModel that is another model with its evaluations counted: every call is forwarded, and
// the calls of the prior and partition factors, with and without a gradient, are counted (relaxed
// atomics: the counts are read after the threads that evaluate have joined). A fit reports what it
// spent as these counts (FitResult::evaluations), the work measure that does not depend on the
// machine.
#include <atomic>
#include <cstdint>

#include "runtime/model/FactorModel.hpp"

namespace pvi {

struct EvaluationCounts {
  std::uint64_t priorValues = 0, priorGradients = 0;
  std::uint64_t partitionValues = 0, partitionGradients = 0;
};

class CountingModel final : public FactorModel {
 public:
  // `model` must outlive this object.
  explicit CountingModel(const FactorModel& model) : model_(model) {}

  EvaluationCounts counts() const {
    return {priorValues_.load(std::memory_order_relaxed), priorGradients_.load(std::memory_order_relaxed),
            partitionValues_.load(std::memory_order_relaxed), partitionGradients_.load(std::memory_order_relaxed)};
  }

  size_t globalDim() const override { return model_.globalDim(); }
  size_t hyperDim() const override { return model_.hyperDim(); }
  size_t numPartitions() const override { return model_.numPartitions(); }
  std::string partitionLabel(size_t partition) const override { return model_.partitionLabel(partition); }
  size_t localDim(size_t partition) const override { return model_.localDim(partition); }
  double partitionObservations(size_t partition) const override { return model_.partitionObservations(partition); }
  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override {
    (gradZ || gradTheta ? priorGradients_ : priorValues_).fetch_add(1, std::memory_order_relaxed);
    return model_.priorLogDensity(z, theta, gradZ, gradTheta);
  }
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta, double* gradZ,
                             double* gradW, double* gradTheta) const override {
    (gradZ || gradW || gradTheta ? partitionGradients_ : partitionValues_).fetch_add(1, std::memory_order_relaxed);
    return model_.partitionLogDensity(partition, z, w, theta, gradZ, gradW, gradTheta);
  }
  std::optional<GaussianPrior> gaussianPrior() const override { return model_.gaussianPrior(); }
  std::vector<std::string> globalNames() const override { return model_.globalNames(); }
  std::vector<bool> globalsWithProperPrior() const override { return model_.globalsWithProperPrior(); }

 private:
  const FactorModel& model_;
  mutable std::atomic<std::uint64_t> priorValues_{0}, priorGradients_{0}, partitionValues_{0}, partitionGradients_{0};
};

}  // namespace pvi
