#include "compiler/ast/AstClone.hpp"

namespace pvi {

namespace {

ExprPtr cloneOptional(const ExprPtr& e) { return e ? cloneExpr(*e) : nullptr; }

}  // namespace

ExprPtr cloneExpr(const Expr& e) {
  auto out = std::make_unique<Expr>();
  out->kind = e.kind;
  out->span = e.span;
  out->text = e.text;
  out->nameSpan = e.nameSpan;
  out->conditional = e.conditional;
  out->broadcast = e.broadcast;
  out->callee = e.callee;
  out->calleeSpan = e.calleeSpan;
  for (const ExprPtr& a : e.args) out->args.push_back(cloneExpr(*a));
  for (const IndexSyntax& i : e.indices) out->indices.push_back(IndexSyntax{i.kind, cloneOptional(i.lo), cloneOptional(i.hi), i.span});
  return out;
}

std::unique_ptr<TypeSyntax> cloneType(const TypeSyntax& t) {
  auto out = std::make_unique<TypeSyntax>();
  out->span = t.span;
  for (const ExprPtr& d : t.arrayDims) out->arrayDims.push_back(cloneExpr(*d));
  out->elem = t.elem;
  for (const ExprPtr& d : t.elemDims) out->elemDims.push_back(cloneExpr(*d));
  out->lower = cloneOptional(t.lower);
  out->upper = cloneOptional(t.upper);
  out->lowerSpan = t.lowerSpan;
  out->upperSpan = t.upperSpan;
  out->offset = cloneOptional(t.offset);
  out->multiplier = cloneOptional(t.multiplier);
  out->offsetSpan = t.offsetSpan;
  out->multiplierSpan = t.multiplierSpan;
  out->constraint = t.constraint;
  out->sizesFromValue = t.sizesFromValue;
  out->valueArrayRank = t.valueArrayRank;
  return out;
}

StmtPtr cloneStmt(const Stmt& s) {
  auto out = std::make_unique<Stmt>();
  out->kind = s.kind;
  out->span = s.span;
  if (s.declType) out->declType = cloneType(*s.declType);
  out->name = s.name;
  out->nameSpan = s.nameSpan;
  out->op = s.op;
  out->output = s.output;
  out->role = s.role;
  out->dataOnly = s.dataOnly;
  out->inlined = s.inlined;
  out->truncated = s.truncated;
  out->truncLower = cloneOptional(s.truncLower);
  out->truncUpper = cloneOptional(s.truncUpper);
  out->truncSpan = s.truncSpan;
  out->truncationCheck = s.truncationCheck;
  for (const ExprPtr& e : s.exprs) out->exprs.push_back(cloneExpr(*e));
  for (const StmtPtr& b : s.body) out->body.push_back(cloneStmt(*b));
  return out;
}

}  // namespace pvi
