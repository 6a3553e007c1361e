#pragma once
// examples/logistic_regression/model.pvi compiled with the JIT (front end -> lowering -> LLVM)
// and bound to the spambase data of one client split, as a pvi::CompiledModel.
#include <filesystem>
#include <memory>

#include "SpamData.hpp"
#include "Splits.hpp"
#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/LowerSource.hpp"
#include "runtime/model/CompiledModel.hpp"
#include "runtime/model/FactorModel.hpp"

namespace spam {

// The compiled program; outlives every CompiledModel bound from it.
struct JitProgram {
  std::unique_ptr<pvi::LoweredSource> source;
  std::unique_ptr<pvi::JitModel> jit;
};

// Throws std::runtime_error with the compiler's diagnostics when the model does not compile.
std::unique_ptr<JitProgram> compileProgram(const std::filesystem::path& modelFile);

// Shared data = data.json's block; partition k = the rows split[k] (DataBlock matrices are
// column-major).
pvi::CompiledModel bindSpamData(const JitProgram& program, const SpamData& data, const Split& split);

// The model's prior found exactly Gaussian by pvi::probeGaussianPrior; throws std::runtime_error
// with the probe's reason otherwise.
pvi::GaussianPrior probedPrior(const pvi::FactorModel& model);

}  // namespace spam
