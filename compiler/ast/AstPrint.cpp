#include "compiler/ast/AstPrint.hpp"

#include <ostream>

#include "compiler/diagnostics/SourceFile.hpp"

namespace pvi {

namespace {

// Binding strength of an operator; higher binds tighter (see docs/language.md).
int precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Cond: return 1;
    case ExprKind::Binary: {
      const std::string& op = e.text;
      if (op == "||") return 2;
      if (op == "&&") return 3;
      if (op == "==" || op == "!=") return 4;
      if (op == "<" || op == "<=" || op == ">" || op == ">=") return 5;
      if (op == "+" || op == "-") return 6;
      if (op == "*" || op == "/" || op == "%") return 7;
      if (op == ".*" || op == "./") return 8;
      return 10;  // ^ .^
    }
    case ExprKind::Unary: return 9;
    default: return 11;
  }
}

std::string operand(const Expr& e, int minPrec) {
  std::string s = printExpr(e);
  return precedence(e) < minPrec ? "(" + s + ")" : s;
}

std::string printIndex(const IndexSyntax& i) {
  if (i.kind == IndexSyntax::Kind::Single) return printExpr(*i.lo);
  return (i.lo ? printExpr(*i.lo) : "") + ":" + (i.hi ? printExpr(*i.hi) : "");
}

}  // namespace

std::string printExpr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit:
    case ExprKind::RealLit:
    case ExprKind::Name: return e.text;
    case ExprKind::Call: {
      std::string s = e.text + "(" + e.callee;  // an ODE solver's system first (CheckOde.cpp)
      for (size_t i = 0; i < e.args.size(); ++i)
        s += (i == 0 && e.callee.empty() ? "" : (i == 1 && e.conditional) ? " | " : ", ") + printExpr(*e.args[i]);
      return s + ")";
    }
    case ExprKind::Index: {
      std::string s = operand(*e.args[0], 11) + "[";
      for (size_t i = 0; i < e.indices.size(); ++i) s += (i ? ", " : "") + printIndex(e.indices[i]);
      return s + "]";
    }
    case ExprKind::Unary: return e.text + operand(*e.args[0], 9);
    case ExprKind::Transpose: return operand(*e.args[0], 11) + "'";
    case ExprKind::Binary: {
      int p = precedence(e);
      bool right = p == 10;  // ^ is right-associative
      return operand(*e.args[0], right ? p + 1 : p) + " " + e.text + " " + operand(*e.args[1], right ? p : p + 1);
    }
    case ExprKind::Cond:
      return operand(*e.args[0], 2) + " ? " + operand(*e.args[1], 1) + " : " + operand(*e.args[2], 1);
    case ExprKind::StringLit: return "\"" + e.text + "\"";
    case ExprKind::RowVectorLit:
    case ExprKind::ArrayLit: {
      std::string s = e.kind == ExprKind::RowVectorLit ? "[" : "{";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + printExpr(*e.args[i]);
      return s + (e.kind == ExprKind::RowVectorLit ? "]" : "}");
    }
  }
  return "?";
}

const char* elemKeyword(ElemKind k) {
  static const char* names[] = {"int", "real", "vector", "row_vector", "matrix"};
  return names[static_cast<int>(k)];
}

const char* constraintKeyword(VectorConstraint c) {
  switch (c) {
    case VectorConstraint::Simplex: return "simplex";
    case VectorConstraint::Ordered: return "ordered";
    case VectorConstraint::PositiveOrdered: return "positive_ordered";
    case VectorConstraint::UnitVector: return "unit_vector";
    case VectorConstraint::CholeskyFactorCorr: return "cholesky_factor_corr";
    case VectorConstraint::CholeskyFactorCov: return "cholesky_factor_cov";
    case VectorConstraint::CorrMatrix: return "corr_matrix";
    case VectorConstraint::CovMatrix: return "cov_matrix";
    case VectorConstraint::None: break;
  }
  return "vector";
}

std::string printBounds(const TypeSyntax& t) {
  std::string bounds;
  const std::pair<const char*, const ExprPtr*> parts[] = {
      {"lower", &t.lower}, {"upper", &t.upper}, {"offset", &t.offset}, {"multiplier", &t.multiplier}};
  for (const auto& [word, e] : parts)
    if (*e) bounds += (bounds.empty() ? "" : ", ") + std::string(word) + "=" + printExpr(**e);
  return bounds.empty() ? bounds : "<" + bounds + ">";
}

std::string printType(const TypeSyntax& t) {
  std::string s;
  if (!t.arrayDims.empty()) {
    s = "array[";
    for (size_t i = 0; i < t.arrayDims.size(); ++i) s += (i ? ", " : "") + printExpr(*t.arrayDims[i]);
    s += "] ";
  }
  s += t.constraint != VectorConstraint::None ? constraintKeyword(t.constraint) : elemKeyword(t.elem);
  s += printBounds(t);
  if (!t.elemDims.empty()) {
    s += "[";
    // [K] for a square constrained matrix (its two sizes are one expression, copied)
    const bool square = isMatrixConstraint(t.constraint) && t.elemDims.size() == 2 &&
                        printExpr(*t.elemDims[0]) == printExpr(*t.elemDims[1]);
    const size_t written = square ? 1 : t.elemDims.size();
    for (size_t i = 0; i < written; ++i) s += (i ? ", " : "") + printExpr(*t.elemDims[i]);
    s += "]";
  }
  return s;
}

namespace {

class Dumper {
 public:
  Dumper(std::ostream& out, const SourceFile& file) : out_(out), file_(file) {}

  void program(const Program& p) {
    line(0, "program");
    for (const Annotation& a : p.annotations) {
      std::string args;
      for (size_t i = 0; i < a.args.size(); ++i) args += (i ? ", " : "") + a.args[i];
      line(1, "annotation @" + a.name + "(" + args + ")", a.span);
    }
    for (const Block& b : p.blocks) {
      line(1, std::string("block ") + blockKeyword(b.kind) + (b.partition.empty() ? "" : " " + b.partition), b.span);
      for (const StmtPtr& s : b.stmts) stmt(2, *s);
    }
  }

 private:
  void line(int depth, const std::string& text, Span at = {}, bool withPos = true) {
    out_ << std::string(static_cast<size_t>(depth) * 2, ' ') << text;
    if (withPos && depth > 0) {
      LineCol lc = file_.lineCol(at.begin);
      out_ << "  @" << lc.line << ':' << lc.col;
    }
    out_ << '\n';
  }

  void stmt(int d, const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Decl:
        line(d, "decl " + s.name + " : " + printType(*s.declType), s.span);
        if (!s.exprs.empty()) expr(d + 1, *s.exprs[0]);
        return;
      case StmtKind::Assign:
        line(d, "assign " + s.op, s.span);
        expr(d + 1, *s.exprs[0]);
        expr(d + 1, *s.exprs[1]);
        return;
      case StmtKind::Tilde:
        line(d, "tilde " + s.name + (s.truncated ? " truncated" : ""), s.span);
        for (const ExprPtr& e : s.exprs) expr(d + 1, *e);
        if (s.truncLower) expr(d + 1, *s.truncLower);
        if (s.truncUpper) expr(d + 1, *s.truncUpper);
        return;
      case StmtKind::Target:
        line(d, "target +=", s.span);
        expr(d + 1, *s.exprs[0]);
        return;
      case StmtKind::For:
        line(d, "for " + s.name, s.span);
        expr(d + 1, *s.exprs[0]);
        expr(d + 1, *s.exprs[1]);
        stmt(d + 1, *s.body[0]);
        return;
      case StmtKind::While:
        line(d, "while", s.span);
        expr(d + 1, *s.exprs[0]);
        stmt(d + 1, *s.body[0]);
        return;
      case StmtKind::If:
        line(d, s.body.size() > 1 ? "if-else" : "if", s.span);
        expr(d + 1, *s.exprs[0]);
        for (const StmtPtr& b : s.body) stmt(d + 1, *b);
        return;
      case StmtKind::Block:
        line(d, "block", s.span);
        for (const StmtPtr& b : s.body) stmt(d + 1, *b);
        return;
      case StmtKind::Return:
        line(d, "return", s.span);
        for (const ExprPtr& e : s.exprs) expr(d + 1, *e);
        return;
      case StmtKind::Call:
        line(d, "call", s.span);
        expr(d + 1, *s.exprs[0]);
        return;
    }
  }

  static std::string typeOf(const Expr& e) {
    return e.type.error ? "" : "  : " + toString(e.type);
  }

  void expr(int d, const Expr& e) {
    std::string t = checked_ ? typeOf(e) : "";
    switch (e.kind) {
      case ExprKind::IntLit: line(d, "int " + e.text + t, e.span); return;
      case ExprKind::RealLit: line(d, "real " + e.text + t, e.span); return;
      case ExprKind::Name: line(d, "name " + e.text + t, e.span); return;
      case ExprKind::Call: line(d, std::string(e.conditional ? "call| " : "call ") + e.text + t, e.span); break;
      case ExprKind::Index: line(d, "index" + t, e.span); break;
      case ExprKind::Unary: line(d, "unary " + e.text + t, e.span); break;
      case ExprKind::Transpose: line(d, "transpose" + t, e.span); break;
      case ExprKind::Binary: line(d, "binary " + e.text + t, e.span); break;
      case ExprKind::Cond: line(d, "cond" + t, e.span); break;
      case ExprKind::RowVectorLit: line(d, "row_vector_literal" + t, e.span); break;
      case ExprKind::ArrayLit: line(d, "array_literal" + t, e.span); break;
      case ExprKind::StringLit: line(d, "string \"" + e.text + "\"", e.span); break;
    }
    for (const ExprPtr& a : e.args) expr(d + 1, *a);
    for (const IndexSyntax& i : e.indices) {
      if (i.kind == IndexSyntax::Kind::Single) {
        expr(d + 1, *i.lo);
        continue;
      }
      line(d + 1, "slice", i.span);
      if (i.lo) expr(d + 2, *i.lo);
      if (i.hi) expr(d + 2, *i.hi);
    }
  }

 public:
  bool checked_ = false;

 private:
  std::ostream& out_;
  const SourceFile& file_;
};

}  // namespace

void dumpAst(std::ostream& out, const Program& program, const SourceFile& file, bool withTypes) {
  Dumper d(out, file);
  d.checked_ = withTypes;
  d.program(program);
}

}  // namespace pvi
