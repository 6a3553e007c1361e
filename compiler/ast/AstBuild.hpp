#pragma once
// Building AST nodes in the passes that write code of their own (truncation, transformed
// parameters' bound checks): nodes carry the span of what they were made from.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ast/Ast.hpp"

namespace pvi::build {

inline ExprPtr node(ExprKind kind, Span at, std::string text, std::vector<ExprPtr> args = {}) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = at;
  e->nameSpan = at;
  e->text = std::move(text);
  e->args = std::move(args);
  return e;
}

inline ExprPtr call(const std::string& fn, Span at, std::vector<ExprPtr> args, bool conditional = false) {
  ExprPtr e = node(ExprKind::Call, at, fn, std::move(args));
  e->conditional = conditional;
  return e;
}

// The expressions given, as the argument list of a node (unique_ptrs cannot be listed in braces).
template <class... E>
std::vector<ExprPtr> list(E&&... e) {
  std::vector<ExprPtr> out;
  (out.push_back(std::forward<E>(e)), ...);
  return out;
}

inline ExprPtr binary(const std::string& op, ExprPtr a, ExprPtr b) {
  const Span at = a->span;
  return node(ExprKind::Binary, at, op, list(std::move(a), std::move(b)));
}

inline StmtPtr statement(StmtKind kind, Span at) {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  s->span = at;
  return s;
}

}  // namespace pvi::build
