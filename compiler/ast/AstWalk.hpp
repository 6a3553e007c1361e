#pragma once
// Visiting the expressions of the AST: the desugaring passes' shared traversal.
#include "compiler/ast/Ast.hpp"

namespace pvi {

// f(ExprPtr&) on each expression a statement holds directly: its declared type's sizes and bounds
// (offset and multiplier included), then its own expressions (not those of nested statements),
// then a truncation's bounds.
template <class S, class F>  // S: Stmt or const Stmt
void forEachExpr(S& s, F&& f) {
  if (s.declType) {
    for (auto& d : s.declType->arrayDims) f(d);
    for (auto& d : s.declType->elemDims) f(d);
    if (s.declType->lower) f(s.declType->lower);
    if (s.declType->upper) f(s.declType->upper);
    if (s.declType->offset) f(s.declType->offset);
    if (s.declType->multiplier) f(s.declType->multiplier);
  }
  for (auto& e : s.exprs) f(e);
  if (s.truncLower) f(s.truncLower);
  if (s.truncUpper) f(s.truncUpper);
}

// f on each direct subexpression: arguments, then index bounds.
template <class E, class F>  // E: Expr or const Expr
void forEachSubExpr(E& e, F&& f) {
  for (auto& a : e.args) f(a);
  for (auto& i : e.indices) {
    if (i.lo) f(i.lo);
    if (i.hi) f(i.hi);
  }
}

}  // namespace pvi
