#pragma once
// Source text -> AST. Reports lexical and syntax errors to `diags` and returns no program when
// there were any (the checker runs only on a syntactically valid program).
#include <optional>

#include "compiler/ast/Ast.hpp"
#include "compiler/diagnostics/Diagnostics.hpp"

namespace pvi {

// Rule nesting deeper than this (parentheses, unary chains, nested statements) is refused with
// a diagnostic instead of risking the native stack in the parser and in every later phase.
inline constexpr int kMaxNesting = 1000;

std::optional<Program> parseProgram(const SourceFile& file, Diagnostics& diags);

}  // namespace pvi
