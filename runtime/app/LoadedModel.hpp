#pragma once
// A model's generated code and description, however it was obtained: JIT-compiled by `pvic run`
// (compiler/codegen/Jit.hpp) or linked into an executable built by `pvic build`
// (LinkedModel.hpp).
#include <string>

#include "runtime/abi/factor_abi.h"
#include "runtime/model/ModelInfo.hpp"

namespace pvi {

struct LoadedModel {
  pvi_model_code code{};
  ModelInfo info;
  std::string source;  // the model file, for output headers
  double compileSeconds = -1.0;  // source to function pointers, when this process compiled it
};

}  // namespace pvi
