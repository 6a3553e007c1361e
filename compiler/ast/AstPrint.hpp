#pragma once
// Printing the AST: expressions back to canonical source text, and the --dump-ast tree.
#include <iosfwd>
#include <string>

#include "compiler/ast/Ast.hpp"

namespace pvi {

class SourceFile;

// Canonical source text of an expression, fully parenthesised where precedence requires.
std::string printExpr(const Expr& e);
// "<lower=0, upper=1>", "<offset=mu, multiplier=tau>", or "" without bounds.
std::string printBounds(const TypeSyntax& t);
std::string printType(const TypeSyntax& t);

// One node per line, indented by depth, with line:col and, when `withTypes` (the program was
// checked without errors), the type of every expression.
void dumpAst(std::ostream& out, const Program& program, const SourceFile& file, bool withTypes);

}  // namespace pvi
