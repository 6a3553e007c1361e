#include "compiler/desugar/IndexingFunctions.hpp"

#include <map>
#include <set>
#include <string>

#include "compiler/ast/AstClone.hpp"
#include "compiler/ast/AstWalk.hpp"

namespace pvi {
namespace {

// Their numbers of arguments; a call with another number is left to the checker, which knows
// their signatures (compiler/sema/Signatures.cpp) and says what they take.
const std::map<std::string, size_t>& functions() {
  static const std::map<std::string, size_t> table{{"sub_col", 4}, {"sub_row", 4}, {"segment", 3}, {"head", 2}, {"tail", 2}};
  return table;
}

ExprPtr make(ExprKind kind, Span span, std::string text = "") {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  e->text = std::move(text);
  return e;
}

// first + count - 1
ExprPtr lastOf(const Expr& first, const Expr& count, Span span) {
  auto sum = make(ExprKind::Binary, span, "+");
  sum->args.push_back(cloneExpr(first));
  sum->args.push_back(cloneExpr(count));
  auto last = make(ExprKind::Binary, span, "-");
  last->args.push_back(std::move(sum));
  last->args.push_back(make(ExprKind::IntLit, span, "1"));
  return last;
}

IndexSyntax single(ExprPtr at, Span span) {
  IndexSyntax i;
  i.kind = IndexSyntax::Kind::Single;
  i.lo = std::move(at);
  i.span = span;
  return i;
}
IndexSyntax slice(ExprPtr lo, ExprPtr hi, Span span) {
  IndexSyntax i;
  i.kind = IndexSyntax::Kind::Slice;
  i.lo = std::move(lo);
  i.hi = std::move(hi);
  i.span = span;
  return i;
}

class Rewriter {
 public:
  explicit Rewriter(const Program& p) {
    for (const FunctionDef& f : p.functions) userDefined_.insert(f.name);
  }

  void stmts(std::vector<StmtPtr>& list) {
    for (StmtPtr& s : list) stmt(*s);
  }

 private:
  void stmt(Stmt& s) {
    forEachExpr(s, [&](ExprPtr& e) { expr(e); });
    stmts(s.body);
  }

  void expr(ExprPtr& e) {
    forEachSubExpr(*e, [&](ExprPtr& a) { expr(a); });
    if (e->kind != ExprKind::Call || e->conditional || userDefined_.count(e->text)) return;
    const auto f = functions().find(e->text);
    if (f == functions().end() || e->args.size() != f->second) return;
    const Span at = e->span;
    std::vector<ExprPtr>& a = e->args;
    auto index = make(ExprKind::Index, at);
    index->args.push_back(std::move(a[0]));
    if (e->text == "sub_col") {
      index->indices.push_back(slice(cloneExpr(*a[1]), lastOf(*a[1], *a[3], at), at));
      index->indices.push_back(single(std::move(a[2]), at));
    } else if (e->text == "sub_row") {
      index->indices.push_back(single(std::move(a[1]), at));
      index->indices.push_back(slice(cloneExpr(*a[2]), lastOf(*a[2], *a[3], at), at));
    } else if (e->text == "segment") {
      index->indices.push_back(slice(cloneExpr(*a[1]), lastOf(*a[1], *a[2], at), at));
    } else if (e->text == "head") {
      index->indices.push_back(slice(make(ExprKind::IntLit, at, "1"), std::move(a[1]), at));
    } else {  // tail: v[(size(v) - n + 1):size(v)]
      auto size = make(ExprKind::Call, at, "size");
      size->nameSpan = at;
      size->args.push_back(cloneExpr(*index->args[0]));
      auto first = make(ExprKind::Binary, at, "+");
      auto rest = make(ExprKind::Binary, at, "-");
      rest->args.push_back(cloneExpr(*size));
      rest->args.push_back(std::move(a[1]));
      first->args.push_back(std::move(rest));
      first->args.push_back(make(ExprKind::IntLit, at, "1"));
      index->indices.push_back(slice(std::move(first), std::move(size), at));
    }
    e = std::move(index);
  }

  std::set<std::string> userDefined_;
};

}  // namespace

void rewriteIndexingFunctions(Program& program) {
  Rewriter r(program);
  for (FunctionDef& f : program.functions) r.stmts(f.body);
  for (Block& b : program.blocks) r.stmts(b.stmts);
}

}  // namespace pvi
