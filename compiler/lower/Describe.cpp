#include "compiler/lower/Describe.hpp"

#include "compiler/ast/AstPrint.hpp"
#include "compiler/lower/Lower.hpp"

namespace pvi {

VariableInfo describeVariable(const Symbol& s) {
  const TypeSyntax& ts = *s.decl->declType;
  VariableInfo v;
  v.name = s.name;
  v.isInt = ts.elem == ElemKind::Int;
  v.isScalar = ts.arrayDims.empty() && (ts.elem == ElemKind::Int || ts.elem == ElemKind::Real);
  switch (ts.elem) {
    case ElemKind::Int:
    case ElemKind::Real: v.shape = ValueShape::Scalar; break;
    case ElemKind::Vector: v.shape = ValueShape::Vector; break;
    case ElemKind::RowVector: v.shape = ValueShape::RowVector; break;
    case ElemKind::Matrix: v.shape = ValueShape::Matrix; break;
  }
  for (const ExprPtr& d : ts.arrayDims) v.arrayDims.push_back(printExpr(*d));
  for (const ExprPtr& d : ts.elemDims) v.shapeDims.push_back(printExpr(*d));
  v.type = printType(ts);
  return v;
}

ModelInfo describeModel(const LoweredModel& m) {
  ModelInfo info;
  info.data = m.schema;
  auto describe = [](const std::vector<const Symbol*>& syms) {
    std::vector<VariableInfo> out;
    for (const Symbol* s : syms) out.push_back(describeVariable(*s));
    return out;
  };
  auto describeGenerated = [](const std::vector<const Stmt*>& stmts) {
    std::vector<VariableInfo> out;
    for (const Stmt* g : stmts) out.push_back(describeVariable(*g->declared));
    return out;
  };
  info.globals = describe(m.globals);
  info.hypers = describe(m.hypers);
  info.locals = describe(m.locals);
  info.generatedShared = describeGenerated(m.generatedShared);
  info.generatedPartition = describeGenerated(m.generatedPartition);
  return info;
}

}  // namespace pvi
