#pragma once
// Stan's user-defined functions, inlined at each call before the checker sees the program, so
// that the checker, the factor assignment, code generation and reverse-mode AD see only the
// statements they already know, with gradients through every function for free.
//
// A call `f(a, b)` in a statement becomes, just before that statement:
//   <type of x> x~k = a;  <type of y> y~k = b;    (the arguments, evaluated once, in order)
//   ... f's body, each of its variables renamed v~k ...
//   <return type> f~k = <the returned value>;
// and the call itself the name f~k. The suffix ~k (k counts the calls inlined) cannot be written
// in a program, so the names never clash with the program's; messages show the names without it
// (Diagnostics). The declarations take their sizes from their values (TypeSyntax::sizesFromValue).
//
// Also here: `y ~ f(...)` for a user-defined f_lpdf or f_lpmf is `target += f_lpdf(y | ...)`, a
// void function called as a statement is its body, and Stan's _lupdf / _lupmf suffixes are
// _lpdf / _lpmf (the dropped constants do not change the posterior), in every program.
//
// What inlining needs, and Stan's rules that it checks (each with a message at the place):
// a function sees only its arguments and its own variables; arguments are not assigned; `target
// +=` and `~` only in functions named _lp; no recursion; a non-void function's `return` ends its
// body, or, for an int or real result, ends each branch of an if/else that ends it. In `c ? f(x)
// : g(x)` only the branch taken is evaluated (a call inside a larger branch expression is
// refused). Functions that are never called are checked for names only, not for types.
#include "compiler/ast/Ast.hpp"
#include "compiler/diagnostics/Diagnostics.hpp"

namespace pvi {

void inlineFunctions(Program& program, Diagnostics& diags);

}  // namespace pvi
