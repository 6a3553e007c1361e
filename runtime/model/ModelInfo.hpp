#pragma once
// Everything the runtime needs to know about a model besides its code: its data blocks and
// the declared shapes of its parameters and generated quantities. The compiler produces it;
// an AOT-built executable carries it as JSON (symbol pvi_model_info), so it needs no compiler.
//
// Concrete sizes depend on the data; the generated shapes functions (factor_abi.h) compute
// them, and VariableLayout (VariableLayout.hpp) turns them into names such as "beta.3".
#include <string>
#include <vector>

#include "runtime/model/DataSchema.hpp"

namespace pvi {

struct ModelInfo {
  std::string name;                          // the model file's stem, for output headers
  DataSchema data;
  std::vector<VariableInfo> globals;         // z, in order
  std::vector<VariableInfo> hypers;          // theta
  std::vector<VariableInfo> locals;          // w_j
  std::vector<VariableInfo> generatedShared; // generated quantities that need only the globals
  std::vector<VariableInfo> generatedPartition;  // ... and those that need a partition
};

std::string toJson(const ModelInfo& info);
// Throws std::runtime_error on malformed text.
ModelInfo modelInfoFromJson(const std::string& text);

}  // namespace pvi
