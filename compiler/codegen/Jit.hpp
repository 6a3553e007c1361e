#pragma once
// JIT compilation of a lowered model with ORC LLJIT: generated IR -> LLVM IR -> O2 -> native
// code, returned as plain C function pointers of the factor ABI.
#include <memory>
#include <string>

#include "compiler/lower/Lower.hpp"
#include "runtime/abi/factor_abi.h"

namespace pvi {

class JitModel {
 public:
  ~JitModel();
  const pvi_model_code& code() const { return code_; }
  // The optimised LLVM IR, for --dump-llvm.
  const std::string& llvmText() const { return llvmText_; }

  // Throws std::runtime_error when LLVM fails.
  static std::unique_ptr<JitModel> compile(const LoweredModel& model);

 private:
  JitModel() = default;
  struct State;
  std::unique_ptr<State> state_;
  pvi_model_code code_{};
  std::string llvmText_;
};

// The generated module, optimised or not (for tests and dumps).
std::string generatedLlvm(const LoweredModel& model, bool optimise);

// Ahead-of-time: writes an object file defining the same symbols the JIT looks up
// (pvi_prior_value, pvi_prior_grad, pvi_prior_dims, pvi_partition_*), optimised by the same
// pipeline for the host CPU. Linked with the kernel library it needs no LLVM. Throws
// std::runtime_error on failure.
void emitObjectFile(const LoweredModel& model, const std::string& path);

}  // namespace pvi
