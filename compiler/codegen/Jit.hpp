#pragma once
// JIT compilation of a lowered model with ORC LLJIT: generated IR -> LLVM IR -> O2 -> native
// code, returned as plain C function pointers of the factor ABI.
#include <memory>
#include <stdexcept>
#include <string>

#include "compiler/lower/Lower.hpp"
#include "runtime/abi/factor_abi.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

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

// The generated module before optimisation: the functions of the factor ABI's list
// (PVI_MODEL_CODE_FUNCTIONS in runtime/abi/factor_abi.h), each named by PVI_ABI_SYMBOL and of
// its ABI type, checked before it is returned. Throws std::runtime_error when LLVM rejects it.
std::unique_ptr<llvm::Module> generatedModule(llvm::LLVMContext& ctx, const LoweredModel& model);

// A CPU name LLVM does not know (emitObjectFile).
struct UnknownCpu : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Ahead-of-time: writes an object file defining the same symbols the JIT looks up (the factor
// ABI's functions) and pvi_model_info, optimised by the same pipeline for `cpu`: "host" (this
// machine's CPU and features, as the JIT) or an LLVM CPU name (x86-64, x86-64-v3, ...). Linked
// with the kernel library it needs no LLVM. Throws UnknownCpu when LLVM does not know `cpu`,
// std::runtime_error on other failures.
void emitObjectFile(const LoweredModel& model, const std::string& path, const std::string& cpu = "host");

}  // namespace pvi
