#pragma once
// The --factors dump: variables by role and the factor every model statement belongs to.
#include <iosfwd>

#include "compiler/sema/CheckedProgram.hpp"

namespace pvi {

class SourceFile;
void dumpFactors(std::ostream& out, const CheckedProgram& program, const SourceFile& file);

}  // namespace pvi
