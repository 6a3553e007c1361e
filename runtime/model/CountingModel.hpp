#pragma once
// A FactorModel that is another model with its evaluations counted: every call is forwarded, and
// the calls of the prior and partition factors, with and without a gradient, are counted (relaxed
// atomics, one set per thread slot: the counts are read after the threads that evaluate have
// joined). A fit reports what it
// spent as these counts (FitResult::evaluations), the work measure that does not depend on the
// machine.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/model/ForwardingModel.hpp"

namespace pvi {

struct EvaluationCounts {
  std::uint64_t priorValues = 0, priorGradients = 0;
  std::uint64_t partitionValues = 0, partitionGradients = 0;
};

class CountingModel final : public ForwardingModel {
 public:
  // `model` must outlive this object.
  explicit CountingModel(const FactorModel& model) : ForwardingModel(model) {}

  EvaluationCounts counts() const {
    EvaluationCounts c;
    for (const Slot& s : slots_) {
      c.priorValues += s.priorValues.load(std::memory_order_relaxed);
      c.priorGradients += s.priorGradients.load(std::memory_order_relaxed);
      c.partitionValues += s.partitionValues.load(std::memory_order_relaxed);
      c.partitionGradients += s.partitionGradients.load(std::memory_order_relaxed);
    }
    return c;
  }

  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override {
    Slot& s = slot();
    (gradZ || gradTheta ? s.priorGradients : s.priorValues).fetch_add(1, std::memory_order_relaxed);
    return inner().priorLogDensity(z, theta, gradZ, gradTheta);
  }
  double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta, double* gradZ,
                             double* gradW, double* gradTheta) const override {
    Slot& s = slot();
    (gradZ || gradW || gradTheta ? s.partitionGradients : s.partitionValues).fetch_add(1, std::memory_order_relaxed);
    return inner().partitionLogDensity(partition, z, w, theta, gradZ, gradW, gradTheta);
  }

 private:
  // One cache line of counts per slot, and each thread counts in the slot of its number: threads
  // that evaluate at once (chains, clients) do not share a line, which a single set of atomics made
  // them do on every evaluation.
  struct alignas(64) Slot {
    std::atomic<std::uint64_t> priorValues{0}, priorGradients{0}, partitionValues{0}, partitionGradients{0};
  };
  static constexpr std::size_t kSlots = 16;
  Slot& slot() const {
    static std::atomic<std::size_t> threads{0};
    thread_local const std::size_t mine = threads.fetch_add(1, std::memory_order_relaxed) % kSlots;
    return slots_[mine];
  }
  mutable std::array<Slot, kSlots> slots_;
};

}  // namespace pvi
