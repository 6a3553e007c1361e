#include "compiler/parse/AstBuilder.hpp"

#include "PVIParser.h"
#include "compiler/ast/AstClone.hpp"
#include "compiler/parse/Parse.hpp"

namespace pvi {

namespace {

using antlr4::ParserRuleContext;
using antlr4::tree::TerminalNode;

struct TooDeep {
  Span at;
};

Span spanOf(antlr4::Token* t) {
  return Span{static_cast<uint32_t>(t->getStartIndex()), static_cast<uint32_t>(t->getStopIndex() + 1)};
}

Span spanOf(ParserRuleContext* ctx) {
  return Span{static_cast<uint32_t>(ctx->getStart()->getStartIndex()),
              static_cast<uint32_t>(ctx->getStop()->getStopIndex() + 1)};
}

class Builder {
 public:
  explicit Builder(Diagnostics& diags) : diags_(diags) {}

  Program program(PVIParser::ProgramContext* ctx) {
    Program p;
    for (auto* a : ctx->annotation()) {
      Annotation ann;
      ann.name = a->IDENT()->getText();
      ann.span = spanOf(a);
      ann.nameSpan = spanOf(a->IDENT()->getSymbol());
      for (auto* id : a->identList()->IDENT()) {
        ann.args.push_back(id->getText());
        ann.argSpans.push_back(spanOf(id->getSymbol()));
      }
      p.annotations.push_back(std::move(ann));
    }
    for (auto* f : ctx->functionsBlock()) {
      if (f != ctx->functionsBlock(0))
        diags_.error(spanOf(f->getStart()), "a second 'functions' block; a program has at most one");
      for (auto* d : f->functionDef()) p.functions.push_back(function(d));
    }
    for (auto* b : ctx->block()) p.blocks.push_back(block(b));
    return p;
  }

 private:
  FunctionDef function(PVIParser::FunctionDefContext* ctx) {
    FunctionDef f;
    f.span = spanOf(ctx);
    f.returnsVoid = ctx->returnType()->unsizedType() == nullptr;
    if (!f.returnsVoid) f.returnType = unsizedType(ctx->returnType()->unsizedType());
    f.name = ctx->IDENT()->getText();
    f.nameSpan = spanOf(ctx->IDENT()->getSymbol());
    for (auto* p : ctx->param()) {
      FunctionParam param;
      param.span = spanOf(p);
      param.dataOnly = p->getStart()->getText() == "data";
      param.type = unsizedType(p->unsizedType());
      param.name = p->IDENT()->getText();
      param.nameSpan = spanOf(p->IDENT()->getSymbol());
      f.params.push_back(std::move(param));
    }
    f.hasBody = ctx->getStop()->getText() == "}";
    for (auto* s : ctx->statement()) f.body.push_back(statement(s));
    return f;
  }

  UnsizedType unsizedType(PVIParser::UnsizedTypeContext* ctx) {
    UnsizedType t;
    t.span = spanOf(ctx);
    t.arrayRank = ctx->getStart()->getText() == "array" ? static_cast<int>(ctx->commas.size()) + 1 : 0;
    const std::string kw = ctx->kw->getText();
    t.elem = kw == "int" ? ElemKind::Int
           : kw == "real" ? ElemKind::Real
           : kw == "vector" ? ElemKind::Vector
           : kw == "row_vector" ? ElemKind::RowVector
                                : ElemKind::Matrix;
    return t;
  }

  Block block(PVIParser::BlockContext* ctx) {
    Block b;
    std::string kw = ctx->kind->getText();
    bool per = ctx->perPartition() != nullptr;
    const bool transformed = kw == "transformed";
    if (transformed) kw = ctx->which->getText();
    b.kind = transformed ? (kw == "data" ? BlockKind::TransformedData : BlockKind::TransformedParameters)
           : kw == "data" ? (per ? BlockKind::PartitionData : BlockKind::Data)
           : kw == "local" ? BlockKind::Local
           : kw == "hyper" ? BlockKind::Hyper
           : kw == "global" || kw == "parameters" ? BlockKind::Global
           : kw == "model" ? BlockKind::Model
                           : BlockKind::Generated;
    b.span = spanOf(ctx);
    b.keywordSpan = spanOf(ctx->kind);
    if (transformed) b.keywordSpan.end = spanOf(ctx->which).end;
    if (kw == "parameters") b.spelling = kw;
    if (ctx->quantities != nullptr) {
      // `generated quantities`, as in Stan; any other name there is a typo of it.
      const std::string word = ctx->quantities->getText();
      if (word != "quantities")
        diags_.error(spanOf(ctx->quantities), "unexpected '" + word +
                                                  "' after 'generated'; the block is 'generated' or, as in Stan, "
                                                  "'generated quantities'");
      b.spelling = "generated quantities";
      b.keywordSpan = Span{b.keywordSpan.begin, spanOf(ctx->quantities).end};
    }
    if (per) {
      b.partition = ctx->perPartition()->IDENT()->getText();
      b.partitionSpan = spanOf(ctx->perPartition()->IDENT()->getSymbol());
    }
    for (auto* s : ctx->statement()) b.stmts.push_back(statement(s));
    return b;
  }

  StmtPtr make(StmtKind k, ParserRuleContext* ctx) {
    auto s = std::make_unique<Stmt>();
    s->kind = k;
    s->span = spanOf(ctx);
    return s;
  }

  StmtPtr statement(PVIParser::StatementContext* ctx) {
    if (auto* d = dynamic_cast<PVIParser::DeclStmtContext*>(ctx)) {
      auto s = make(StmtKind::Decl, ctx);
      s->declType = type(d->type());
      s->name = d->IDENT()->getText();
      s->nameSpan = spanOf(d->IDENT()->getSymbol());
      if (d->expr()) s->exprs.push_back(expr(d->expr()));
      return s;
    }
    if (auto* t = dynamic_cast<PVIParser::TargetStmtContext*>(ctx)) {
      auto s = make(StmtKind::Target, ctx);
      s->exprs.push_back(expr(t->expr()));
      return s;
    }
    if (auto* f = dynamic_cast<PVIParser::ForStmtContext*>(ctx)) {
      auto s = make(StmtKind::For, ctx);
      s->name = f->IDENT()->getText();
      s->nameSpan = spanOf(f->IDENT()->getSymbol());
      s->exprs.push_back(expr(f->expr(0)));
      s->exprs.push_back(expr(f->expr(1)));
      s->body.push_back(statement(f->statement()));
      return s;
    }
    if (auto* i = dynamic_cast<PVIParser::IfStmtContext*>(ctx)) {
      auto s = make(StmtKind::If, ctx);
      s->exprs.push_back(expr(i->expr()));
      for (auto* sub : i->statement()) s->body.push_back(statement(sub));
      return s;
    }
    if (auto* w = dynamic_cast<PVIParser::WhileStmtContext*>(ctx)) {
      auto s = make(StmtKind::While, ctx);
      s->exprs.push_back(expr(w->expr()));
      s->body.push_back(statement(w->statement()));
      return s;
    }
    if (auto* b = dynamic_cast<PVIParser::BlockStmtContext*>(ctx)) {
      auto s = make(StmtKind::Block, ctx);
      for (auto* sub : b->statement()) s->body.push_back(statement(sub));
      return s;
    }
    if (auto* r = dynamic_cast<PVIParser::ReturnStmtContext*>(ctx)) {
      auto s = make(StmtKind::Return, ctx);
      if (r->expr()) s->exprs.push_back(expr(r->expr()));
      return s;
    }
    auto* e = static_cast<PVIParser::ExprStmtContext*>(ctx);
    if (e->stmtTail() == nullptr) {  // f(...); a void function's call
      auto s = make(StmtKind::Call, ctx);
      s->exprs.push_back(expr(e->expr()));
      return s;
    }
    if (auto* tilde = dynamic_cast<PVIParser::TildeTailContext*>(e->stmtTail())) {
      auto s = make(StmtKind::Tilde, ctx);
      s->name = tilde->IDENT()->getText();
      s->nameSpan = spanOf(tilde->IDENT()->getSymbol());
      s->exprs.push_back(expr(e->expr()));
      if (tilde->exprList())
        for (auto* a : tilde->exprList()->expr()) s->exprs.push_back(expr(a));
      if (auto* t = tilde->truncation()) {
        if (t->trunc->getText() != "T")
          diags_.error(spanOf(t->trunc), "unexpected '" + t->trunc->getText() + "' after a '~' statement; a truncation is "
                                         "written T[L, U], T[L, ] or T[, U]");
        s->truncated = true;
        s->truncSpan = spanOf(t);
        if (t->lo) s->truncLower = expr(t->lo);
        if (t->hi) s->truncUpper = expr(t->hi);
      }
      return s;
    }
    auto* assign = static_cast<PVIParser::AssignTailContext*>(e->stmtTail());
    auto s = make(StmtKind::Assign, ctx);
    s->op = assign->op->getText();
    s->exprs.push_back(expr(e->expr()));
    s->exprs.push_back(expr(assign->expr()));
    return s;
  }

  std::unique_ptr<TypeSyntax> type(PVIParser::TypeContext* ctx) {
    auto t = std::make_unique<TypeSyntax>();
    t->span = spanOf(ctx);
    if (ctx->exprList())
      for (auto* d : ctx->exprList()->expr()) t->arrayDims.push_back(expr(d));
    auto* el = ctx->elemType();
    std::string kw = el->kw->getText();
    t->constraint = kw == "simplex"            ? VectorConstraint::Simplex
                    : kw == "ordered"          ? VectorConstraint::Ordered
                    : kw == "positive_ordered" ? VectorConstraint::PositiveOrdered
                    : kw == "unit_vector" ? VectorConstraint::UnitVector
                    : kw == "cholesky_factor_corr" ? VectorConstraint::CholeskyFactorCorr
                    : kw == "cholesky_factor_cov" ? VectorConstraint::CholeskyFactorCov
                    : kw == "corr_matrix"         ? VectorConstraint::CorrMatrix
                    : kw == "cov_matrix"          ? VectorConstraint::CovMatrix
                                                  : VectorConstraint::None;
    if (t->constraint != VectorConstraint::None) kw = isMatrixConstraint(t->constraint) ? "matrix" : "vector";
    t->elem = kw == "int" ? ElemKind::Int
            : kw == "real" ? ElemKind::Real
            : kw == "vector" ? ElemKind::Vector
            : kw == "row_vector" ? ElemKind::RowVector
                                 : ElemKind::Matrix;
    for (auto* d : el->expr()) t->elemDims.push_back(expr(d));
    if (isMatrixConstraint(t->constraint) && t->elemDims.size() == 1) t->elemDims.push_back(cloneExpr(*t->elemDims[0]));
    if (auto* bounds = el->bounds()) {
      for (auto* b : bounds->bound()) {
        const std::string word = b->which->getText();
        ExprPtr* slot = word == "lower"        ? &t->lower
                        : word == "upper"      ? &t->upper
                        : word == "offset"     ? &t->offset
                        : word == "multiplier" ? &t->multiplier
                                               : nullptr;
        Span* slotSpan = word == "lower"        ? &t->lowerSpan
                         : word == "upper"      ? &t->upperSpan
                         : word == "offset"     ? &t->offsetSpan
                                                : &t->multiplierSpan;
        if (slot == nullptr) {
          diags_.error(spanOf(b->which), "unknown bound '" + word + "'; expected lower, upper, offset or multiplier");
          continue;
        }
        if (*slot) {
          diags_.error(spanOf(b), "duplicate " + word + (word == "lower" || word == "upper" ? " bound" : ""));
          continue;
        }
        *slot = expr(b->boundExpr());
        *slotSpan = spanOf(b);
      }
    }
    return t;
  }

  ExprPtr make(ExprKind k, Span span, std::string text = {}) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->span = span;
    e->text = std::move(text);
    return e;
  }

  // Both `expr` and `boundExpr` alternatives are recognised by the shape of their children, so
  // one function builds both. The parser handles long left-recursive chains (a + a + ...)
  // without recursion, but the tree is as deep as the chain, so the depth is limited here.
  ExprPtr expr(ParserRuleContext* ctx) {
    struct Depth {
      int& d;
      explicit Depth(int& depth) : d(depth) { ++d; }
      ~Depth() { --d; }
    } depth(depth_);
    if (depth_ > kMaxNesting) throw TooDeep{spanOf(ctx)};
    if (ctx->getRuleIndex() == PVIParser::RulePrimary) return primary(static_cast<PVIParser::PrimaryContext*>(ctx));
    const auto& ch = ctx->children;
    Span span = spanOf(ctx);
    auto sub = [&](size_t i) { return expr(static_cast<ParserRuleContext*>(ch[i])); };
    auto tok = [&](size_t i) { return text(static_cast<TerminalNode*>(ch[i])->getSymbol()); };
    switch (ch.size()) {
      case 1:
        return expr(static_cast<ParserRuleContext*>(ch[0]));
      case 2:
        if (ch[0]->children.empty()) {  // a terminal first: prefix operator (rule contexts here have children)
          auto e = make(ExprKind::Unary, span, tok(0));
          e->args.push_back(sub(1));
          return e;
        } else {  // postfix transpose
          auto e = make(ExprKind::Transpose, span, "'");
          e->args.push_back(sub(0));
          return e;
        }
      case 3: {
        auto e = make(ExprKind::Binary, span, tok(1));
        e->args.push_back(sub(0));
        e->args.push_back(sub(2));
        return e;
      }
      case 4: {  // base '[' indices ']'
        auto e = make(ExprKind::Index, span);
        e->args.push_back(sub(0));
        auto* idx = static_cast<PVIParser::IndicesContext*>(ch[2]);
        for (auto* i : idx->index()) e->indices.push_back(index(i));
        return e;
      }
      case 5: {
        auto e = make(ExprKind::Cond, span, "?:");
        e->args.push_back(sub(0));
        e->args.push_back(sub(2));
        e->args.push_back(sub(4));
        return e;
      }
    }
    throw std::logic_error("unexpected expression shape");
  }

  IndexSyntax index(PVIParser::IndexContext* ctx) {
    IndexSyntax i;
    i.span = spanOf(ctx);
    i.kind = ctx->colon ? IndexSyntax::Kind::Slice : IndexSyntax::Kind::Single;
    if (ctx->lo) i.lo = expr(ctx->lo);
    if (ctx->hi) i.hi = expr(ctx->hi);
    return i;
  }

  // Alternatives are told apart by their first token, which is cheaper than dynamic_cast.
  ExprPtr primary(PVIParser::PrimaryContext* ctx) {
    Span span = spanOf(ctx);
    antlr4::Token* first = ctx->getStart();
    if (first->getType() == PVIParser::STRING_LITERAL) {
      const std::string quoted = text(first);
      return make(ExprKind::StringLit, span, quoted.substr(1, quoted.size() - 2));
    }
    if (ctx->children.size() == 1) {
      ExprKind k = first->getType() == PVIParser::INT_LITERAL  ? ExprKind::IntLit
                   : first->getType() == PVIParser::REAL_LITERAL ? ExprKind::RealLit
                                                                : ExprKind::Name;
      return make(k, span, text(first));
    }
    if (first->getType() != PVIParser::IDENT && first->getText() != "(") {  // '[' ... ']' or '{' ... '}'
      auto e = make(first->getText() == "[" ? ExprKind::RowVectorLit : ExprKind::ArrayLit, span, first->getText());
      auto* list = static_cast<PVIParser::ExprListContext*>(ctx->children[1]);
      for (auto* a : list->expr()) e->args.push_back(expr(a));
      return e;
    }
    if (first->getType() != PVIParser::IDENT) {  // '(' expr ')'
      ExprPtr inner = expr(static_cast<ParserRuleContext*>(ctx->children[1]));
      inner->span = span;  // the parentheses belong to the operand's span
      return inner;
    }
    auto* c = static_cast<PVIParser::CallExprContext*>(ctx);
    auto e = make(ExprKind::Call, span, text(first));
    e->nameSpan = spanOf(first);
    if (auto* args = c->callArgs()) {
      e->conditional = args->bar != nullptr;
      for (auto* a : args->expr()) e->args.push_back(expr(a));
      if (args->exprList())
        for (auto* a : args->exprList()->expr()) e->args.push_back(expr(a));
    }
    return e;
  }

  // A token's text; for an ASCII file straight from the source (ANTLR converts from UTF-32).
  std::string text(antlr4::Token* t) {
    const SourceFile& f = diags_.file();
    if (f.isAscii()) return f.text().substr(t->getStartIndex(), t->getStopIndex() + 1 - t->getStartIndex());
    return t->getText();
  }

  Diagnostics& diags_;
  int depth_ = 0;
};

}  // namespace

std::optional<Program> buildAst(antlr4::ParserRuleContext* programContext, Diagnostics& diags) {
  try {
    return Builder(diags).program(static_cast<PVIParser::ProgramContext*>(programContext));
  } catch (TooDeep& e) {
    diags.error(Span{e.at.begin, e.at.begin + 1}, "nesting is too deep: more than " + std::to_string(kMaxNesting) +
                                                      " levels of expressions or statements");
    return std::nullopt;
  }
}

}  // namespace pvi
