// Assigns every model statement to a factor. A statement joins the factor of the partition whose
// per-partition data or locals it touches, directly, through a variable computed from them, or
// through the loop or condition around it; otherwise it joins the prior factor.
#include <map>

#include "compiler/sema/Checker.hpp"

namespace pvi {

namespace {

constexpr const char* kSizeRule = "sizes may use only data";
constexpr const char* kFlowRule = "loops and conditions may use only data";
constexpr const char* kWhileRule =
    "the body of a while loop may use only data outside the generated block (pvic cannot differentiate through "
    "it yet); write it as a for loop";

std::string describeOwner(const Symbol& s) {
  return (s.kind == SymbolKind::Local ? "local '" : "'") + s.name + "'";
}

}  // namespace

Taint Checker::taintOf(const Expr& e) const {
  Taint t;
  if (e.kind == ExprKind::Name && e.symbol != nullptr) t.merge(e.symbol->taint);
  for (const ExprPtr& a : e.args) t.merge(taintOf(*a));
  // size(), rows(), cols() and dims() read only the declared shape, which is data (of the
  // variable's partition), never the value of a latent.
  if (e.kind == ExprKind::Call && (e.text == "size" || e.text == "rows" || e.text == "cols" || e.text == "dims"))
    t.latent = nullptr;
  for (const IndexSyntax& i : e.indices) {
    if (i.lo) t.merge(taintOf(*i.lo));
    if (i.hi) t.merge(taintOf(*i.hi));
  }
  return t;
}

class FactorAssigner {
 public:
  FactorAssigner(Checker& c) : c_(c) {}

  void run() {
    // Variable taints flow along assignments, possibly backwards through loops: iterate to a
    // fixed point (each pass can only add partitions or a latent, so it terminates).
    for (int pass = 0; pass < 64; ++pass) {
      changed_ = false;
      walkBlocks(false);
      if (!changed_) break;
    }
    walkBlocks(true);
  }

 private:
  void walkBlocks(bool final) {
    final_ = final;
    for (Block& b : c_.out_.program.blocks) {
      if (b.kind != BlockKind::Model && b.kind != BlockKind::Generated) continue;
      inGenerated_ = b.kind == BlockKind::Generated;
      for (StmtPtr& s : b.stmts) walk(*s, Taint{});
    }
  }

  void update(Symbol* sym, const Taint& t) {
    if (sym == nullptr) return;
    Taint merged = sym->taint;
    merged.merge(t);
    if (!(merged == sym->taint)) {
      sym->taint = merged;
      changed_ = true;
    }
  }

  // Sizes and control flow may depend on data only: shapes must be known when data are bound,
  // and the density must be a smooth function of the latents. The generated block computes no
  // gradient, so there only sizes are restricted.
  void requireData(const Expr& e, const std::string& what, const char* rule) {
    if (inGenerated_ && rule == kFlowRule) return;
    Taint t = c_.taintOf(e);
    if (t.latent != nullptr && !t.poisoned) {
      c_.diags_.error(e.span, what + " depends on latent '" + t.latent->name + "'; " + rule);
    }
  }

  // Every expression of a while loop's body (its number of iterations is known only when it runs,
  // so the gradient cannot replay it backwards: nothing in it may depend on a latent).
  void requireDataInside(const Stmt& s) {
    for (const ExprPtr& e : s.exprs) requireData(*e, "this statement in the body of a while loop", kWhileRule);
    if (s.declType)
      for (const auto* dims : {&s.declType->arrayDims, &s.declType->elemDims})
        for (const ExprPtr& d : *dims) requireData(*d, "this statement in the body of a while loop", kWhileRule);
    for (const StmtPtr& b : s.body) requireDataInside(*b);
  }

  // `c ? a : b` is control flow too.
  void requireDataConditions(const Expr& e) {
    if (e.kind == ExprKind::Cond) requireData(*e.args[0], "the condition of '?:'", kFlowRule);
    for (const ExprPtr& a : e.args) requireDataConditions(*a);
    for (const IndexSyntax& i : e.indices) {
      if (i.lo) requireDataConditions(*i.lo);
      if (i.hi) requireDataConditions(*i.hi);
    }
  }

  void walk(Stmt& s, const Taint& ctx) {
    if (final_)
      for (const ExprPtr& e : s.exprs) requireDataConditions(*e);
    switch (s.kind) {
      case StmtKind::Decl: {
        Taint t = ctx;
        for (const ExprPtr& d : s.declType->arrayDims) t.merge(c_.taintOf(*d));
        for (const ExprPtr& d : s.declType->elemDims) t.merge(c_.taintOf(*d));
        for (const ExprPtr* b : {&s.declType->lower, &s.declType->upper})  // checked bounds of a generated quantity
          if (*b) t.merge(c_.taintOf(**b));
        if (final_) {
          for (const ExprPtr& d : s.declType->arrayDims) requireData(*d, "the size of '" + s.name + "'", kSizeRule);
          for (const ExprPtr& d : s.declType->elemDims) requireData(*d, "the size of '" + s.name + "'", kSizeRule);
        }
        if (!s.exprs.empty()) t.merge(c_.taintOf(*s.exprs[0]));
        update(s.declared, t);
        if (final_ && s.declared != nullptr) {
          running_[s.declared] = t;
          checkSinglePartition(running_[s.declared], s.span, s.declared);
          if (inGenerated_) c_.out_.generated.push_back({&s, factorOf(s.declared->taint)});
        }
        return;
      }
      case StmtKind::Assign: {
        Taint t = ctx;
        t.merge(c_.taintOf(*s.exprs[1]));
        const Expr* lhs = s.exprs[0].get();
        while (lhs->kind == ExprKind::Index) {
          for (const IndexSyntax& i : lhs->indices) {
            if (i.lo) t.merge(c_.taintOf(*i.lo));
            if (i.hi) t.merge(c_.taintOf(*i.hi));
          }
          lhs = lhs->args[0].get();
        }
        Symbol* target = const_cast<Symbol*>(lhs->symbol);
        update(target, t);
        if (final_ && target != nullptr && !target->taint.poisoned) {
          running_[target].merge(t);
          checkSinglePartition(running_[target], s.span, target);
        }
        return;
      }
      case StmtKind::Tilde:
      case StmtKind::Target: {
        if (!final_) return;
        Taint t = ctx;
        for (const ExprPtr& e : s.exprs) t.merge(c_.taintOf(*e));
        if (checkSinglePartition(t, s.span, nullptr)) c_.out_.model.push_back({&s, factorOf(t)});
        return;
      }
      case StmtKind::For: {
        Taint t = ctx;
        t.merge(c_.taintOf(*s.exprs[0]));
        t.merge(c_.taintOf(*s.exprs[1]));
        if (final_) {
          requireData(*s.exprs[0], "the lower bound of the loop", kFlowRule);
          requireData(*s.exprs[1], "the upper bound of the loop", kFlowRule);
        }
        update(s.declared, t);
        walk(*s.body[0], t);
        return;
      }
      case StmtKind::If: {
        if (s.truncationCheck && c_.taintOf(*s.exprs[0]).latent != nullptr) {
          // A truncation's range check whose condition reads a latent cannot be control flow: the
          // latent's declared bounds must keep it in range (Checker::checkTruncation).
          if (final_) dropTruncationCheck(s);
          return;
        }
        Taint t = ctx;
        t.merge(c_.taintOf(*s.exprs[0]));
        // A branch that only prints or rejects may test latents (`if (sigma < 0) reject(...)`):
        // it contributes nothing to the density or its gradient.
        if (final_ && !onlyPrints(s)) requireData(*s.exprs[0], "the condition of 'if'", kFlowRule);
        for (StmtPtr& b : s.body) walk(*b, t);
        return;
      }
      case StmtKind::While: {
        Taint t = ctx;
        t.merge(c_.taintOf(*s.exprs[0]));
        if (final_) {
          requireData(*s.exprs[0], "the condition of 'while'", kFlowRule);
          // (A latent in the condition taints what the body assigns: one error says it all.)
          if (!inGenerated_ && t.latent == nullptr) requireDataInside(*s.body[0]);
        }
        walk(*s.body[0], t);
        return;
      }
      case StmtKind::Block:
        for (StmtPtr& b : s.body) walk(*b, ctx);
        return;
      case StmtKind::Call: {  // print, reject and fatal_error go with what they read
        if (!final_ || !isPrintStatement(s)) return;
        Taint t = ctx;
        for (const ExprPtr& e : s.exprs[0]->args) t.merge(c_.taintOf(*e));
        if (!checkSinglePartition(t, s.span, nullptr)) return;
        (inGenerated_ ? c_.out_.generatedEffects : c_.out_.model).push_back({&s, factorOf(t)});
        return;
      }
      case StmtKind::Return: return;  // refused by the checker (inlining replaces them)
    }
  }

  // Removes a truncation's range check that reads a latent, with a warning unless the variate is
  // a latent declared with the truncation's bounds (`real<lower=0> s; s ~ normal(0, 1) T[0, ];`).
  void dropTruncationCheck(Stmt& s) {
    if (!s.truncationCovered) {
      const Symbol* latent = c_.taintOf(*s.exprs[0]).latent;
      if (latent == s.truncationVariate)
        c_.diags_.warning(s.span, "this truncation's range is not checked for latent '" + latent->name +
                                      "': declare the truncation's bounds as the bounds of '" + latent->name +
                                      "', as Stan programs usually do");
      else
        c_.diags_.warning(s.span, "this truncation's range is not checked, because its bounds read latent '" +
                                      latent->name + "'");
    }
    s.kind = StmtKind::Block;
    s.exprs.clear();
    s.body.clear();
  }

  static FactorRef factorOf(const Taint& t) {
    return FactorRef{t.partitions.empty() ? std::string() : t.partitions.begin()->first};
  }

  // Reports a statement (or a variable's value) that draws on two partitions. Returns true
  // when it is fine.
  bool checkSinglePartition(Taint& t, Span at, Symbol* var) {
    if (t.partitions.size() < 2) return true;
    if (t.poisoned) return false;
    auto first = t.partitions.begin();
    auto second = std::next(first);
    const Symbol* a = first->second;
    const Symbol* b = second->second;
    if (b->kind == SymbolKind::Local && a->kind != SymbolKind::Local) std::swap(a, b);
    std::string where = var ? "the value of '" + var->name + "'" : std::string("this statement");
    if (a->kind == SymbolKind::Local) {
      c_.diags_.error(at, "local '" + a->name + "' of partition '" + a->partition + "' is used outside its partition: " +
                              where + " also uses " + describeOwner(*b) + " of partition '" + b->partition + "'");
    } else {
      c_.diags_.error(at, where + " mixes partitions '" + a->partition + "' and '" + b->partition + "': '" + a->name +
                              "' belongs to '" + a->partition + "' and '" + b->name + "' to '" + b->partition + "'");
    }
    t.poisoned = true;
    if (var) var->taint.poisoned = true;
    return false;
  }

  Checker& c_;
  // Final pass: each variable's taint so far in program order, so that a mix of partitions is
  // reported at the statement that brings in the second one.
  std::map<Symbol*, Taint> running_;
  bool changed_ = false;
  bool final_ = false;
  bool inGenerated_ = false;
};

void Checker::assignFactors() { FactorAssigner(*this).run(); }

}  // namespace pvi
