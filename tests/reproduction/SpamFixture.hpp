#pragma once
// The spambase data, the compiled model and its exact prior, shared by the reproduction tests.
#include <memory>

#include "CompiledSpamModel.hpp"
#include "SpamData.hpp"
#include "runtime/model/WithGaussianPrior.hpp"
#include "runtime/model/GaussianPriorProbe.hpp"

namespace spam::test {

inline const SpamData& spamData() {
  static const SpamData data = loadSpamData(PVI_SOURCE_DIR "/examples/logistic_regression");
  return data;
}

inline const JitProgram& spamProgram() {
  static const std::unique_ptr<JitProgram> program =
      compileProgram(PVI_SOURCE_DIR "/examples/logistic_regression/model.pvi");
  return *program;
}

// The compiled model of a split with its prior probed from the generated code.
struct CompiledSplit {
  pvi::CompiledModel compiled;
  pvi::WithGaussianPrior model;  // refers to `compiled`: not copyable
  explicit CompiledSplit(const Split& split)
      : compiled(bindSpamData(spamProgram(), spamData(), split)), model(compiled, probedPrior(compiled)) {}
  CompiledSplit(const CompiledSplit&) = delete;
  CompiledSplit& operator=(const CompiledSplit&) = delete;
};

}  // namespace spam::test
