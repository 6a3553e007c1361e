#pragma once
// The semantic checker: names, types and shapes, signatures, and factor assignment.
#include <optional>

#include "compiler/diagnostics/Diagnostics.hpp"
#include "compiler/sema/CheckedProgram.hpp"

namespace pvi {

// Checks `program` and reports every error it can find. The returned program is complete only
// when diags has no errors.
CheckedProgram checkProgram(Program program, Diagnostics& diags);

}  // namespace pvi
