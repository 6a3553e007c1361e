#pragma once
// Deep copies of syntax trees, spans included and sema fields cleared (a copy is checked anew).
#include "compiler/ast/Ast.hpp"

namespace pvi {

ExprPtr cloneExpr(const Expr& e);
StmtPtr cloneStmt(const Stmt& s);
std::unique_ptr<TypeSyntax> cloneType(const TypeSyntax& t);

}  // namespace pvi
