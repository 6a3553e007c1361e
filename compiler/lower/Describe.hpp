#pragma once
// The runtime's description of a model (runtime/model/ModelInfo.hpp) from its checked symbols.
#include <string_view>

#include "compiler/ast/Ast.hpp"
#include "compiler/sema/Symbol.hpp"
#include "runtime/model/ModelInfo.hpp"

namespace pvi {

struct LoweredModel;

// The bounds of a declared type as a transform: its kind and each bound as written, with its
// value when it is a number.
Transform describeTransform(const TypeSyntax& ts);

// A declared variable's kind, shape, size expressions (as written) and transform.
VariableInfo describeVariable(const Symbol& s);

// The data schema, parameters and generated quantities of a lowered model (name left empty),
// with the hash of `source` (the model's text) and the schema.
ModelInfo describeModel(const LoweredModel& m, std::string_view source);

}  // namespace pvi
