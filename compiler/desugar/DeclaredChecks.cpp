#include "compiler/desugar/DeclaredChecks.hpp"

#include <functional>

#include "compiler/ast/AstBuild.hpp"
#include "compiler/ast/AstClone.hpp"
#include "compiler/ast/AstPrint.hpp"

namespace pvi {

namespace {

using namespace build;

// Names no program can write (a '~' is not part of an identifier).
std::string elementLoop(size_t d) { return "check~i" + std::to_string(d + 1); }
const char* const kRow = "check~r";
const char* const kCol = "check~c";

class Checks {
 public:
  Checks(const Stmt& decl, const std::string& what) : decl_(decl), t_(*decl.declType), at_(decl.declType->span) {
    prefix_ = what + " '" + decl.name;
  }

  std::vector<StmtPtr> make(bool bounds) {
    std::vector<StmtPtr> inner;
    if (bounds)
      for (const ExprPtr* b : {&t_.lower, &t_.upper})
        if (*b) inner.push_back(boundCheck(**b, b == &t_.lower));
    constraintChecks(inner);
    std::vector<StmtPtr> out;
    for (StmtPtr& s : inner) out.push_back(overElements(std::move(s)));
    return out;
  }

 private:
  ExprPtr name(const std::string& n) const { return node(ExprKind::Name, at_, n); }
  ExprPtr integer(int64_t v) const { return node(ExprKind::IntLit, at_, std::to_string(v)); }
  ExprPtr real(const char* text) const { return node(ExprKind::RealLit, at_, text); }

  // base[i1, ..., ik]; `broadcast`: base itself when it is not an array (Expr::broadcast).
  ExprPtr indexed(ExprPtr base, std::vector<ExprPtr> indices, bool broadcast = false) const {
    if (indices.empty()) return base;
    ExprPtr e = node(ExprKind::Index, at_, "", list(std::move(base)));
    for (ExprPtr& i : indices) e->indices.push_back(IndexSyntax{IndexSyntax::Kind::Single, std::move(i), nullptr, at_});
    e->broadcast = broadcast;
    return e;
  }
  std::vector<ExprPtr> elementIndices() const {
    std::vector<ExprPtr> out;
    for (size_t d = 0; d < t_.arrayDims.size(); ++d) out.push_back(name(elementLoop(d)));
    return out;
  }
  // The element checked: x[i1, ..., ik] over the array dimensions (x itself for none).
  ExprPtr element() const { return indexed(name(decl_.name), elementIndices()); }
  // element()[i] or element()[i, j].
  ExprPtr entry(ExprPtr i, ExprPtr j = nullptr) const {
    std::vector<ExprPtr> ix = list(std::move(i));
    if (j) ix.push_back(std::move(j));
    return indexed(element(), std::move(ix));
  }
  ExprPtr fn(const char* f, ExprPtr a) const { return call(f, at_, list(std::move(a))); }

  // if (!(test)) reject("<what> 'x[i1, i2]' <problem>")
  StmtPtr unless(ExprPtr test, const std::string& problem) const {
    StmtPtr reject = statement(StmtKind::Call, at_);
    std::vector<ExprPtr> text;
    std::string pending = prefix_;
    for (size_t d = 0; d < t_.arrayDims.size(); ++d) {
      text.push_back(node(ExprKind::StringLit, at_, pending + (d == 0 ? "[" : ", ")));
      text.push_back(name(elementLoop(d)));
      pending.clear();
    }
    text.push_back(node(ExprKind::StringLit, at_, pending + (t_.arrayDims.empty() ? "" : "]") + "' " + problem));
    reject->exprs.push_back(call("reject", at_, std::move(text)));
    StmtPtr check = statement(StmtKind::If, at_);
    check->exprs.push_back(node(ExprKind::Unary, at_, "!", list(std::move(test))));
    check->body.push_back(std::move(reject));
    return check;
  }

  // for (var in lo:hi) body
  StmtPtr loop(const std::string& var, ExprPtr lo, ExprPtr hi, StmtPtr body) const {
    StmtPtr s = statement(StmtKind::For, at_);
    s->name = var;
    s->nameSpan = at_;
    s->exprs.push_back(std::move(lo));
    s->exprs.push_back(std::move(hi));
    s->body.push_back(std::move(body));
    return s;
  }

  // The element's test against one bound: e >= L for a real, min(e - L) >= 0 for a vector,
  // row_vector or matrix (L a scalar or like e); and the same with max and <= for an upper bound.
  StmtPtr boundCheck(const Expr& bound, bool lower) const {
    const Span at = lower ? t_.lowerSpan : t_.upperSpan;
    ExprPtr b = indexed(cloneExpr(bound), elementIndices(), /*broadcast=*/true);
    const char* op = lower ? ">=" : "<=";
    ExprPtr test;
    if (t_.elem == ElemKind::Real || t_.elem == ElemKind::Int) {
      test = node(ExprKind::Binary, at, op, list(element(), std::move(b)));
    } else {
      ExprPtr diff = node(ExprKind::Binary, at, "-", list(element(), std::move(b)));
      test = node(ExprKind::Binary, at, op, list(fn(lower ? "min" : "max", std::move(diff)), integer(0)));
    }
    return unless(std::move(test), std::string("is ") + (lower ? "below its lower" : "above its upper") + " bound (" +
                                       (lower ? "lower=" : "upper=") + printExpr(bound) + ")");
  }

  void constraintChecks(std::vector<StmtPtr>& out) const {
    const std::string kind = std::string("is not a valid ") + constraintKeyword(t_.constraint);
    auto within = [&](ExprPtr value, ExprPtr target) {  // abs(value - target) <= 1e-8
      return binary("<=", fn("abs", binary("-", std::move(value), std::move(target))), real("1e-8"));
    };
    // for (r in 1:rows(e)) for (c in r + 1:cols(e)) if (!(test(r, c))) reject(...)
    auto aboveDiagonal = [&](const std::function<ExprPtr()>& test, const std::string& problem) {
      return loop(kRow, integer(1), fn("rows", element()),
                  loop(kCol, binary("+", name(kRow), integer(1)), fn("cols", element()), unless(test(), problem)));
    };
    switch (t_.constraint) {
      case VectorConstraint::None: return;
      case VectorConstraint::Simplex:
        out.push_back(unless(
            binary("&&", binary(">=", fn("min", element()), integer(0)), within(fn("sum", element()), integer(1))),
            kind + ": its elements must be >= 0 and sum to 1 (within 1e-8)"));
        return;
      case VectorConstraint::UnitVector:
        out.push_back(unless(within(fn("dot_self", element()), integer(1)),
                             kind + ": its squared elements must sum to 1 (within 1e-8)"));
        return;
      case VectorConstraint::PositiveOrdered: {
        StmtPtr nonEmpty = statement(StmtKind::If, at_);
        nonEmpty->exprs.push_back(binary(">", fn("rows", element()), integer(0)));
        nonEmpty->body.push_back(
            unless(binary(">=", entry(integer(1)), integer(0)), kind + ": its first element is negative"));
        out.push_back(std::move(nonEmpty));
      }
        [[fallthrough]];
      case VectorConstraint::Ordered:
        out.push_back(loop(kRow, integer(2), fn("rows", element()),
                           unless(binary(">", entry(name(kRow)), entry(binary("-", name(kRow), integer(1)))),
                                  kind + ": its elements must be strictly increasing")));
        return;
      case VectorConstraint::CholeskyFactorCorr:
      case VectorConstraint::CholeskyFactorCov:
        out.push_back(unless(binary(">=", fn("rows", element()), fn("cols", element())),
                             kind + ": it must have at least as many rows as columns"));
        out.push_back(aboveDiagonal([&] { return binary("==", entry(name(kRow), name(kCol)), integer(0)); },
                                    kind + ": it must be lower triangular"));
        out.push_back(loop(
            kRow, integer(1), call("min", at_, list(fn("rows", element()), fn("cols", element()))),
            unless(binary(">", entry(name(kRow), name(kRow)), integer(0)), kind + ": its diagonal must be positive")));
        if (t_.constraint == VectorConstraint::CholeskyFactorCorr)
          out.push_back(loop(kRow, integer(1), fn("rows", element()),
                             unless(within(fn("dot_self", entry(name(kRow))), integer(1)),
                                    kind + ": each row's squared elements must sum to 1 (within 1e-8)")));
        return;
      case VectorConstraint::CorrMatrix:
        out.push_back(loop(kRow, integer(1), fn("rows", element()),
                           unless(within(entry(name(kRow), name(kRow)), integer(1)),
                                  kind + ": its diagonal must be 1 (within 1e-8)")));
        [[fallthrough]];
      case VectorConstraint::CovMatrix:
        out.push_back(
            aboveDiagonal([&] { return within(entry(name(kRow), name(kCol)), entry(name(kCol), name(kRow))); },
                          kind + ": it must be symmetric (within 1e-8)"));
        out.push_back(unless(binary(">", fn("min", fn("eigenvalues_sym", element())), integer(0)),
                             kind + ": it must be positive definite"));
        return;
    }
  }

  // `check` inside loops over the variable's array dimensions:
  // for (i1 in 1:size(x)) for (i2 in 1:size(x[i1])) check
  StmtPtr overElements(StmtPtr check) const {
    for (size_t d = t_.arrayDims.size(); d-- > 0;) {
      std::vector<ExprPtr> outer;
      for (size_t k = 0; k < d; ++k) outer.push_back(name(elementLoop(k)));
      check =
          loop(elementLoop(d), integer(1), fn("size", indexed(name(decl_.name), std::move(outer))), std::move(check));
    }
    return check;
  }

  const Stmt& decl_;
  const TypeSyntax& t_;
  Span at_;
  std::string prefix_;
};

}  // namespace

std::vector<StmtPtr> declaredChecks(const Stmt& decl, bool bounds, const std::string& what) {
  return Checks(decl, what).make(bounds);
}

}  // namespace pvi
