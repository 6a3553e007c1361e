#pragma once
// Stan's `transformed data` and `transformed parameters` blocks, before the checker sees the
// program.
//
// Transformed data are data computed once, when the data are bound: the checker declares the
// block's top-level variables as data, and code generation computes them in functions of their
// own (transform_shared and transform_partition, runtime/abi/factor_abi.h), whose results the
// runtime appends to the data. This pass
//   - makes a size of a top-level declaration that is not arithmetic over names (`sum(m) - 1`)
//     an int of the transformed data, named by the expression's text, so that sizes stay
//     computable from int scalars of the data;
//   - moves the statements that read per-partition data (directly or through a variable such a
//     statement assigns) to a transformed data block of that partition, computed per partition.
//
// Transformed parameters are copies of their statements at the top of the model and generated
// blocks: the model block computes them where the log density needs them, and the generated
// block computes them again for the output, where a top-level declaration is written (as Stan
// writes transformed parameters, before the generated quantities). A program without a generated
// block gets one when it has transformed parameters. The original block is left empty, so that
// the checker still sees it in its place (block order, duplicates). Its bounds and constrained
// types are checked at the end of the model block's copy: a point where they fail has density
// zero (reject), as in Stan. Those of transformed data and generated quantities are checked at
// the end of their blocks (compiler/desugar/DeclaredChecks.hpp). The copies keep the original
// spans, so a diagnostic points at the transformed block (the checker's diagnostics are
// deduplicated: the two copies report one).
#include "compiler/ast/Ast.hpp"
#include "compiler/diagnostics/Diagnostics.hpp"

namespace pvi {

void inlineTransformedBlocks(Program& program, Diagnostics& diags);

}  // namespace pvi
