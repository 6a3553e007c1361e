#pragma once
// Stan's library functions that are indexing under another name, rewritten as the indexing they
// are before the checker sees the program, so that sizes, bounds checks and gradients are those
// of slices:
//   sub_col(x, i, j, n)  ->  x[i:(i + n - 1), j]        sub_row(x, i, j, n)  ->  x[i, j:(j + n - 1)]
//   segment(v, i, n)     ->  v[i:(i + n - 1)]           head(v, n)           ->  v[1:n]
//   tail(v, n)           ->  v[(size(v) - n + 1):size(v)]
// The arguments i, n (and tail's v) are copied where they appear twice (they are ints, and pure). A program
// that defines a function of one of these names keeps its own (Stan forbids that; the inliner says
// so). A call with a wrong number of arguments is left to the checker, which reports it.
#include "compiler/ast/Ast.hpp"

namespace pvi {

void rewriteIndexingFunctions(Program& program);

}  // namespace pvi
