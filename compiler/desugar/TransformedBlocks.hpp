#pragma once
// Stan's `transformed data` and `transformed parameters` blocks, as copies of their statements at
// the top of the model and generated blocks, before the checker sees the program: the model block
// computes them where the log density needs them, and the generated block computes them again for
// the output, where a transformed parameter's top-level declaration is written (as Stan writes
// transformed parameters, before the generated quantities) and a transformed data declaration is
// a temporary (Stmt::output false). A program without a generated block gets one when it has
// transformed parameters. The original blocks are left empty, so that the checker still sees them
// in their place (block order, duplicates).
//
// Transformed data are recomputed at every evaluation of the log density, not once when the data
// are bound. A transformed data scalar initialised by arithmetic over data, and never assigned
// again, may size and bound parameters: its value is substituted there. Other transformed data
// cannot. Bounds on the declarations of both blocks are not checked yet, which a warning says, and
// neither are constrained types (simplex, corr_matrix, ...) there and in generated quantities. The copies keep the original spans, so a diagnostic points at the
// transformed block (the checker's diagnostics are deduplicated: the two copies report one).
#include "compiler/ast/Ast.hpp"
#include "compiler/diagnostics/Diagnostics.hpp"

namespace pvi {

void inlineTransformedBlocks(Program& program, Diagnostics& diags);

}  // namespace pvi
