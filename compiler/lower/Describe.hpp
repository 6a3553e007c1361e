#pragma once
// The runtime's description of a model (runtime/model/ModelInfo.hpp) from its checked symbols.
#include "compiler/sema/Symbol.hpp"
#include "runtime/model/ModelInfo.hpp"

namespace pvi {

struct LoweredModel;

// A declared variable's kind, shape and size expressions (as written).
VariableInfo describeVariable(const Symbol& s);

// The data schema, parameters and generated quantities of a lowered model (name left empty).
ModelInfo describeModel(const LoweredModel& m);

}  // namespace pvi
