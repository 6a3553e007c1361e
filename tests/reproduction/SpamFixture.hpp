#pragma once
// The spambase data, the compiled model and its exact prior, shared by the reproduction tests.
#include <memory>

#include "CompiledSpamModel.hpp"
#include "SpamData.hpp"
#include "runtime/model/WithGaussianPrior.hpp"
#include "runtime/pvi/GaussianPriorProbe.hpp"

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
  pvi::WithGaussianPrior model;
  explicit CompiledSplit(const Split& split)
      : compiled(bindSpamData(spamProgram(), spamData(), split)), model(compiled, probe(compiled)) {}

 private:
  static pvi::GaussianPrior probe(const pvi::FactorModel& m) {
    const pvi::PriorProbeResult r = pvi::probeGaussianPrior(m, {});
    if (!r.prior) throw std::runtime_error("the compiled prior is not Gaussian: " + r.reason);
    return *r.prior;
  }
};

}  // namespace spam::test
