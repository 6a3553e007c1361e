#include "compiler/lower/Describe.hpp"

#include "compiler/ast/AstPrint.hpp"
#include "compiler/lower/Lower.hpp"

#include <cstdlib>
#include <string>

namespace pvi {

namespace {

// The value of a bound written as a number (a literal, possibly with a sign).
std::optional<double> constantValue(const Expr& e) {
  if (e.kind == ExprKind::IntLit || e.kind == ExprKind::RealLit) return std::strtod(e.text.c_str(), nullptr);  // never throws
  if (e.kind == ExprKind::Unary && (e.text == "-" || e.text == "+")) {
    std::optional<double> v = constantValue(*e.args[0]);
    if (v && e.text == "-") return -*v;
    return v;
  }
  return std::nullopt;
}

Bound describeBound(const ExprPtr& e) {
  Bound b;
  if (!e) return b;
  b.expr = printExpr(*e);
  b.constant = constantValue(*e);
  return b;
}

}  // namespace

Transform describeTransform(const TypeSyntax& ts) {
  Transform t;
  switch (ts.constraint) {
    case VectorConstraint::Simplex: t.kind = TransformKind::Simplex; return t;
    case VectorConstraint::Ordered: t.kind = TransformKind::Ordered; return t;
    case VectorConstraint::PositiveOrdered: t.kind = TransformKind::PositiveOrdered; return t;
    case VectorConstraint::UnitVector: t.kind = TransformKind::UnitVector; return t;
    case VectorConstraint::CholeskyFactorCorr: t.kind = TransformKind::CholeskyFactorCorr; return t;
    case VectorConstraint::CholeskyFactorCov: t.kind = TransformKind::CholeskyFactorCov; return t;
    case VectorConstraint::CorrMatrix: t.kind = TransformKind::CorrMatrix; return t;
    case VectorConstraint::CovMatrix: t.kind = TransformKind::CovMatrix; return t;
    case VectorConstraint::None: break;
  }
  if (ts.offset || ts.multiplier) {
    t.kind = TransformKind::Affine;
    t.offset = describeBound(ts.offset);
    t.multiplier = describeBound(ts.multiplier);
    return t;
  }
  t.kind = ts.lower && ts.upper ? TransformKind::LowerUpper
           : ts.lower           ? TransformKind::Lower
           : ts.upper           ? TransformKind::Upper
                                : TransformKind::Identity;
  t.lower = describeBound(ts.lower);
  t.upper = describeBound(ts.upper);
  return t;
}

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
  v.transform = describeTransform(ts);
  // A simplex, a unit vector, a correlation matrix or its Cholesky factor and a variable bounded on
  // both sides live on bounded sets: without a prior statement they are uniform there, which is
  // proper.
  v.properPrior = s.hasPrior || hasBoundedSupport(ts.constraint) || v.transform.kind == TransformKind::LowerUpper;
  return v;
}

ModelInfo describeModel(const LoweredModel& m, std::string_view source) {
  ModelInfo info;
  info.data = m.schema;
  info.sourceHash = modelSourceHash(source, m.schema);
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
  info.rngCalls = m.rngCalls;
  info.statements = m.statements;
  return info;
}

}  // namespace pvi
