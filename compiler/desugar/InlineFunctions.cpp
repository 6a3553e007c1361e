#include "compiler/desugar/InlineFunctions.hpp"

#include <functional>
#include <map>
#include <set>

#include "compiler/ast/AstClone.hpp"
#include "compiler/ast/AstWalk.hpp"
#include "compiler/sema/Signatures.hpp"

namespace pvi {

namespace {

std::string typeName(const UnsizedType& t) {
  const std::string elem = elemKeyword(t.elem);
  if (t.arrayRank == 0) return elem;
  return "array[" + std::string(static_cast<size_t>(t.arrayRank - 1), ',') + "] " + elem;
}

std::string signature(const FunctionDef& f) {
  std::string s = (f.returnsVoid ? std::string("void") : typeName(f.returnType)) + " " + f.name + "(";
  for (size_t i = 0; i < f.params.size(); ++i)
    s += (i ? ", " : "") + std::string(f.params[i].dataOnly ? "data " : "") + typeName(f.params[i].type) + " " +
         f.params[i].name;
  return s + ")";
}

ExprPtr nameExpr(std::string name, Span at) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Name;
  e->text = std::move(name);
  e->span = at;
  return e;
}

// `<elem> name;`, a temporary (never written as a generated quantity).
StmtPtr declStmt(ElemKind elem, std::string name, Span span, Span typeSpan, Span nameSpan) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::Decl;
  s->span = span;
  s->declType = std::make_unique<TypeSyntax>();
  s->declType->span = typeSpan;
  s->declType->elem = elem;
  s->name = std::move(name);
  s->nameSpan = nameSpan;
  s->output = false;
  return s;
}

// `<type> name = value;`, sized by its value.
StmtPtr valueDecl(const UnsizedType& t, std::string name, Span nameSpan, ExprPtr value, std::string role) {
  StmtPtr s = declStmt(t.elem, std::move(name), value->span, t.span, nameSpan);
  s->declType->sizesFromValue = true;
  s->declType->valueArrayRank = t.arrayRank;
  s->exprs.push_back(std::move(value));
  s->role = std::move(role);
  return s;
}

// `name = value;`
StmtPtr assignStmt(const std::string& name, ExprPtr value, Span span) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::Assign;
  s->span = span;
  s->op = "=";
  s->exprs.push_back(nameExpr(name, span));
  s->exprs.push_back(std::move(value));
  return s;
}

class Inliner {
 public:
  Inliner(Program& p, Diagnostics& diags) : p_(p), diags_(diags) {}

  void run() {
    collectDefinitions();
    for (const FunctionDef* f : defined_) checkBody(*f);
    for (Block& b : p_.blocks) {
      if (b.kind == BlockKind::Model || b.kind == BlockKind::Generated || b.kind == BlockKind::TransformedData ||
          b.kind == BlockKind::TransformedParameters) {
        statements(b.stmts);
        continue;
      }
      // Declarations of data and parameters: their sizes and bounds are evaluated before any
      // statement runs, where there is nowhere to put a function's body.
      for (StmtPtr& s : b.stmts)
        forEachExpr(*s, [&](ExprPtr& e) { refuseCalls(*e, b); });
    }
  }

 private:
  // Definitions ---------------------------------------------------------------------------------

  void collectDefinitions() {
    for (FunctionDef& f : p_.functions) {
      if (stdlib::findFunction(f.name) != nullptr || stdlib::findDistribution(f.name) != nullptr ||
          stdlib::findDensityFunction(f.name) != nullptr) {
        diags_.error(f.nameSpan, "'" + f.name + "' is a function of the library; a user-defined function needs "
                                                "another name");
        continue;
      }
      auto it = byName_.find(f.name);
      if (it == byName_.end()) {
        byName_[f.name] = &f;
        if (f.hasBody) defined_.push_back(&f);
        continue;
      }
      FunctionDef& prev = *it->second;
      if (signature(prev) != signature(f)) {
        Diagnostic& d = diags_.error(f.nameSpan, "'" + f.name + "' is already declared as " + signature(prev) +
                                                     "; pvic does not support overloading (" + signature(f) + ")");
        Diagnostics::note(d, prev.nameSpan, "the first declaration of '" + f.name + "'");
        continue;
      }
      if (prev.hasBody && f.hasBody) {
        Diagnostic& d = diags_.error(f.nameSpan, "'" + f.name + "' is defined twice");
        Diagnostics::note(d, prev.nameSpan, "the first definition of '" + f.name + "'");
        continue;
      }
      if (f.hasBody) {  // the definition after a forward declaration
        it->second = &f;
        defined_.push_back(&f);
      }
    }
  }

  // Stan's rules for a function body that inlining relies on: only its own names, arguments
  // never assigned, no bounds, densities only in _lp functions. Reported once per function.
  void checkBody(const FunctionDef& f) {
    std::vector<std::set<std::string>> scopes(1);
    std::set<std::string> params;
    for (const FunctionParam& p : f.params) {
      if (params.count(p.name)) diags_.error(p.nameSpan, "two arguments of '" + f.name + "' are named '" + p.name + "'");
      params.insert(p.name);
      scopes[0].insert(p.name);
    }
    for (const StmtPtr& s : f.body) checkStatement(f, *s, scopes, params);
  }

  void checkStatement(const FunctionDef& f, Stmt& s, std::vector<std::set<std::string>>& scopes,
                      const std::set<std::string>& params) {
    auto visible = [&](const std::string& n) {
      for (const auto& sc : scopes)
        if (sc.count(n)) return true;
      return false;
    };
    std::function<void(Expr&)> names = [&](Expr& e) {
      if (e.kind == ExprKind::Name && !visible(e.text))
        diags_.error(e.span, "'" + e.text + "' is not visible in the function '" + f.name +
                                 "': a function sees only its arguments and its own variables");
      // An ODE solver's first argument names its system, a function (compiler/sema/CheckOde.cpp).
      const bool system = e.kind == ExprKind::Call && e.text.rfind("integrate_ode_", 0) == 0 && !e.args.empty() &&
                          e.args[0]->kind == ExprKind::Name && byName_.count(e.args[0]->text) &&
                          !visible(e.args[0]->text);
      forEachSubExpr(e, [&](ExprPtr& a) {
        if (!(system && a.get() == e.args[0].get())) names(*a);
      });
    };
    forEachExpr(s, [&](ExprPtr& e) { names(*e); });
    switch (s.kind) {
      case StmtKind::Decl:
        if (s.declType->lower || s.declType->upper)
          diags_.error(s.declType->lower ? s.declType->lowerSpan : s.declType->upperSpan,
                       "variables declared in a function cannot have bounds");
        if (s.declType->offset || s.declType->multiplier)
          diags_.error(s.declType->offset ? s.declType->offsetSpan : s.declType->multiplierSpan,
                       "variables declared in a function cannot have an offset or multiplier");
        if (s.declType->constraint != VectorConstraint::None)
          diags_.error(s.declType->span, std::string("variables declared in a function cannot be constrained (") +
                                             constraintKeyword(s.declType->constraint) + "); declare a " +
                                             elemKeyword(s.declType->elem));
        if (s.name == f.name) diags_.error(s.nameSpan, "a variable of '" + f.name + "' has the function's name");
        scopes.back().insert(s.name);
        return;
      case StmtKind::Assign: {
        const Expr* root = s.exprs[0].get();
        while (root->kind == ExprKind::Index) root = root->args[0].get();
        if (root->kind == ExprKind::Name && params.count(root->text) && !shadowedBelowArguments(scopes, root->text))
          diags_.error(root->span, "'" + root->text + "' is an argument of '" + f.name +
                                       "' and cannot be assigned (as in Stan, arguments are constant); "
                                       "copy it into a variable of the function first");
        return;
      }
      case StmtKind::Tilde:
      case StmtKind::Target:
        if (!f.name.ends_with("_lp"))
          diags_.error(s.span, std::string(s.kind == StmtKind::Tilde ? "'~' statements" : "'target +='") +
                                   " can be used only in functions whose name ends in _lp, not in '" + f.name + "'");
        return;
      case StmtKind::For:
        scopes.emplace_back();
        scopes.back().insert(s.name);
        checkStatement(f, *s.body[0], scopes, params);
        scopes.pop_back();
        return;
      case StmtKind::If:
      case StmtKind::While:  // each branch (or the loop's body) a scope of its own
        for (StmtPtr& b : s.body) {
          scopes.emplace_back();
          checkStatement(f, *b, scopes, params);
          scopes.pop_back();
        }
        return;
      case StmtKind::Block:  // one scope for all its statements
        scopes.emplace_back();
        for (StmtPtr& b : s.body) checkStatement(f, *b, scopes, params);
        scopes.pop_back();
        return;
      case StmtKind::Return:
        if (f.returnsVoid && !s.exprs.empty())
          diags_.error(s.exprs[0]->span, "'" + f.name + "' is declared void and cannot return a value");
        if (!f.returnsVoid && s.exprs.empty())
          diags_.error(s.span, "'" + f.name + "' returns " + typeName(f.returnType) + "; 'return' needs a value");
        return;
      case StmtKind::Call: return;
    }
  }

  static bool shadowedBelowArguments(const std::vector<std::set<std::string>>& scopes, const std::string& n) {
    for (size_t i = 1; i < scopes.size(); ++i)
      if (scopes[i].count(n)) return true;
    return false;
  }

  const FunctionDef* userFunction(const std::string& name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
  }

  // f(call) for each outermost call of a user-defined function in e.
  template <class F>
  void forEachUserCall(const Expr& e, F&& f) const {
    if (e.kind == ExprKind::Call && userFunction(e.text) != nullptr) {
      f(e);
      return;
    }
    forEachSubExpr(e, [&](const ExprPtr& a) { forEachUserCall(*a, f); });
  }

  bool callsUserFunction(const Expr& e) const {
    bool calls = false;
    forEachUserCall(e, [&](const Expr&) { calls = true; });
    return calls;
  }

  void refuseCalls(const Expr& e, const Block& b) {
    forEachUserCall(e, [&](const Expr& call) {
      diags_.error(call.nameSpan, "the user-defined function '" + call.text +
                                      "' cannot be used in the sizes or bounds of the '" + blockKeyword(b.kind) +
                                      "' block's variables yet");
    });
  }

  // Statements ----------------------------------------------------------------------------------

  void statements(std::vector<StmtPtr>& stmts) {
    std::vector<StmtPtr> out;
    for (StmtPtr& s : stmts) {
      std::vector<StmtPtr> before;
      statement(s, before);
      for (StmtPtr& b : before) out.push_back(std::move(b));
      if (s) out.push_back(std::move(s));
    }
    stmts = std::move(out);
  }

  // A statement in a loop or branch: a block when its calls add statements before it.
  void nested(StmtPtr& s) {
    std::vector<StmtPtr> one;
    one.push_back(std::move(s));
    const Span at = one[0]->span;
    statements(one);
    if (one.size() == 1) {
      s = std::move(one[0]);
      return;
    }
    s = std::make_unique<Stmt>();
    s->kind = StmtKind::Block;
    s->span = at;
    s->body = std::move(one);
  }

  // Inlines the calls in s, adding their statements to `before`; s becomes null when it is
  // replaced entirely (a void function's call).
  void statement(StmtPtr& s, std::vector<StmtPtr>& before) {
    if (s->kind == StmtKind::Tilde) tildeToTarget(s);
    switch (s->kind) {
      case StmtKind::For:
        for (ExprPtr& e : s->exprs) expr(e, before);
        nested(s->body[0]);
        return;
      case StmtKind::If:
        expr(s->exprs[0], before);
        for (StmtPtr& b : s->body) nested(b);
        return;
      case StmtKind::While:
        // Inlined statements go before the loop and would run once: a call in the condition,
        // evaluated on every iteration, cannot be inlined there.
        forEachUserCall(*s->exprs[0], [&](const Expr& call) {
          diags_.error(call.nameSpan, "a call of user-defined function '" + call.text +
                                          "' in the condition of a while loop is not supported yet; assign it to a "
                                          "variable before the loop and again at the end of its body");
        });
        nested(s->body[0]);
        return;
      case StmtKind::Block: statements(s->body); return;
      case StmtKind::Call: {
        Expr& call = *s->exprs[0];
        const FunctionDef* f = call.kind == ExprKind::Call ? userFunction(call.text) : nullptr;
        if (f != nullptr && !f->returnsVoid) return;  // the checker explains
        if (f == nullptr) break;
        for (ExprPtr& a : call.args) expr(a, before);
        if (inlineCall(call, before) != nullptr) s.reset();
        return;
      }
      default: break;
    }
    forEachExpr(*s, [&](ExprPtr& e) { expr(e, before); });
  }

  // `y ~ f(a)` for a user-defined f_lpdf / f_lpmf.
  void tildeToTarget(StmtPtr& s) {
    std::string density;
    for (const char* suffix : {"_lpdf", "_lpmf"})
      if (userFunction(s->name + suffix) != nullptr) density = s->name + suffix;
    if (density.empty()) return;
    if (s->truncated) {
      diags_.error(s->truncSpan, "truncation of the user-defined distribution '" + s->name + "' is not supported yet");
      s->truncated = false;
    }
    auto call = std::make_unique<Expr>();
    call->kind = ExprKind::Call;
    call->text = density;
    call->nameSpan = s->nameSpan;
    call->span = s->span;
    call->conditional = true;
    call->args = std::move(s->exprs);
    s->kind = StmtKind::Target;
    s->name.clear();
    s->exprs.clear();
    s->exprs.push_back(std::move(call));
  }

  // Expressions ---------------------------------------------------------------------------------

  void expr(ExprPtr& e, std::vector<StmtPtr>& before) {
    if (e->kind == ExprKind::Cond && conditional(e, before)) return;
    forEachSubExpr(*e, [&](ExprPtr& a) { expr(a, before); });
    if (e->kind != ExprKind::Call) return;
    for (const char* lu : {"_lupdf", "_lupmf"})
      if (e->text.ends_with(lu)) e->text = e->text.substr(0, e->text.size() - 6) + (lu[4] == 'd' ? "_lpdf" : "_lpmf");
    const FunctionDef* f = userFunction(e->text);
    if (f == nullptr) return;
    if (f->returnsVoid) {
      diags_.error(e->nameSpan, "'" + f->name + "' is declared void: it has no value to use");
      return;
    }
    if (ExprPtr value = inlineCall(*e, before)) e = std::move(value);
  }

  // `c ? a : b` with calls in its branches. A scalar ?: evaluates only the branch taken (a[t - 1]
  // guarded by t > 1), so when each branch that calls is itself a call of a function with a
  // scalar result, the ?: becomes
  //   real conditional~k;  if (c) { ...a's body...; conditional~k = a; } else { ... }
  // (an int when both branches are calls of int functions). Container results evaluate both
  // branches anyway (FunctionLowerer::conditional), so their calls are inlined before the
  // statement like any other. Other calls in branches are refused. True when e was rewritten.
  bool conditional(ExprPtr& e, std::vector<StmtPtr>& before) {
    bool calls = false, scalar = false, ints = true, lp = false, direct = true;
    for (size_t b = 1; b < 3; ++b) {
      if (!callsUserFunction(*e->args[b])) {
        ints = ints && e->args[b]->kind == ExprKind::IntLit;
        continue;
      }
      calls = true;
      const FunctionDef* f = e->args[b]->kind == ExprKind::Call ? userFunction(e->args[b]->text) : nullptr;
      if (f == nullptr || f->returnsVoid) {
        direct = false;
        continue;
      }
      const UnsizedType& r = f->returnType;
      scalar = scalar || (r.arrayRank == 0 && (r.elem == ElemKind::Int || r.elem == ElemKind::Real));
      ints = ints && r.arrayRank == 0 && r.elem == ElemKind::Int;
      lp = lp || f->name.ends_with("_lp");
    }
    if (!calls) return false;
    if (!direct || (!scalar && lp)) {
      for (size_t b = 1; b < 3; ++b) refuseCallsInBranch(*e->args[b]);
      return true;
    }
    if (!scalar) return false;  // containers: both branches are evaluated in any case
    expr(e->args[0], before);
    const Span at = e->span;
    const std::string result = "conditional~" + std::to_string(++counter_);
    StmtPtr decl = declStmt(ints ? ElemKind::Int : ElemKind::Real, result, at, at, at);
    auto branch = std::make_unique<Stmt>();
    branch->kind = StmtKind::If;
    branch->span = at;
    branch->exprs.push_back(std::move(e->args[0]));
    for (size_t b = 1; b < 3; ++b) {
      auto block = std::make_unique<Stmt>();
      block->kind = StmtKind::Block;
      block->span = e->args[b]->span;
      expr(e->args[b], block->body);
      block->body.push_back(assignStmt(result, std::move(e->args[b]), block->span));
      branch->body.push_back(std::move(block));
    }
    before.push_back(std::move(decl));
    before.push_back(std::move(branch));
    e = nameExpr(result, at);
    return true;
  }

  // A call in a branch that conditional() cannot make lazy: it would be inlined before the
  // statement, evaluated whatever c is.
  void refuseCallsInBranch(const Expr& e) {
    forEachUserCall(e, [&](const Expr& call) {
      diags_.error(call.nameSpan, "the user-defined function '" + call.text +
                                      "' is called inside a branch of '?:', which pvic supports only where the "
                                      "branch is the call itself (it would be evaluated whichever branch is taken); "
                                      "use if/else and a variable");
    });
  }

  // The statements of one call, added to `before`; the name holding its value (for a void
  // function, an empty name). Null after an error, leaving the call for the checker to skip.
  ExprPtr inlineCall(Expr& call, std::vector<StmtPtr>& before) {
    const FunctionDef& f = *userFunction(call.text);
    for (const std::string& caller : stack_)
      if (caller == f.name) {
        std::string chain;
        for (const std::string& c : stack_) chain += c + " -> ";
        diags_.error(call.nameSpan, "recursive call of '" + f.name + "' (" + chain + f.name +
                                        "): pvic inlines user-defined functions and cannot inline recursion");
        return nullptr;
      }
    if (!f.hasBody) {
      Diagnostic& d = diags_.error(call.nameSpan, "'" + f.name + "' is declared but never defined");
      Diagnostics::note(d, f.nameSpan, "its declaration");
      return nullptr;
    }
    if (call.args.size() != f.params.size()) {
      diags_.error(call.nameSpan, "'" + f.name + "' takes " + std::to_string(f.params.size()) + " argument" +
                                      (f.params.size() == 1 ? "" : "s") + " (" + signature(f) + "); found " +
                                      std::to_string(call.args.size()));
      return nullptr;
    }
    const std::string suffix = "~" + std::to_string(++counter_);
    std::map<std::string, std::string> renamed;
    for (const FunctionParam& p : f.params) renamed[p.name] = p.name + suffix;
    std::vector<StmtPtr> body;
    for (const StmtPtr& s : f.body) body.push_back(cloneStmt(*s));
    renameBody(body, renamed, suffix);
    const std::string result = f.name + suffix;
    if (!returnsToResult(f, body, result, call.span)) return nullptr;  // the call stays whole
    for (size_t i = 0; i < f.params.size(); ++i) {
      const FunctionParam& p = f.params[i];
      before.push_back(valueDecl(p.type, p.name + suffix, p.nameSpan, std::move(call.args[i]),
                                 "argument '" + p.name + "' of '" + f.name + "'"));
      before.back()->dataOnly = p.dataOnly;
    }
    stack_.push_back(f.name);
    statements(body);
    stack_.pop_back();
    for (StmtPtr& s : body) {
      if (s->kind == StmtKind::Decl) s->output = false;  // the generated block's temporaries
      markInlined(*s);
      before.push_back(std::move(s));
    }
    if (f.returnsVoid) return nameExpr({}, call.span);
    return nameExpr(result, call.span);
  }

  // An _lp function's '~' and 'target +=' in transformed parameters add to target in the model
  // block's copy only (compiler/desugar/TransformedBlocks.hpp).
  static void markInlined(Stmt& s) {
    s.inlined = true;
    for (StmtPtr& b : s.body) markInlined(*b);
  }

  // Every name the body declares, and every use of it, gets the suffix.
  void renameBody(std::vector<StmtPtr>& body, std::map<std::string, std::string>& renamed, const std::string& suffix) {
    std::function<void(Expr&)> renameExpr = [&](Expr& e) {
      if (e.kind == ExprKind::Name) {
        auto it = renamed.find(e.text);
        if (it != renamed.end()) e.text = it->second;
      }
      forEachSubExpr(e, [&](ExprPtr& a) { renameExpr(*a); });
    };
    std::function<void(Stmt&)> renameStmt = [&](Stmt& s) {
      forEachExpr(s, [&](ExprPtr& e) { renameExpr(*e); });
      if (s.kind == StmtKind::Decl || s.kind == StmtKind::For) {
        renamed[s.name] = s.name + suffix;
        s.name += suffix;
      }
      for (StmtPtr& b : s.body) renameStmt(*b);
    };
    for (StmtPtr& s : body) renameStmt(*s);
  }

  // Turns the body's returns into the result's declaration or assignments. False after an error.
  bool returnsToResult(const FunctionDef& f, std::vector<StmtPtr>& body, const std::string& result, Span callSpan) {
    if (f.returnsVoid) {
      if (!body.empty() && body.back()->kind == StmtKind::Return) body.pop_back();
      return noReturnIn(body, f);
    }
    if (body.empty() || !endsInReturn(*body.back())) {
      diags_.error(body.empty() ? f.nameSpan : body.back()->span,
                   "the function '" + f.name + "' must end with a 'return' of its " + typeName(f.returnType) + " value");
      return false;
    }
    if (body.back()->kind == StmtKind::Return) {
      StmtPtr last = std::move(body.back());
      body.pop_back();
      if (!noReturnIn(body, f)) return false;
      body.push_back(valueDecl(f.returnType, result, f.nameSpan, std::move(last->exprs[0]),
                               "the value '" + f.name + "' returns"));
      return true;
    }
    // A final if/else whose branches return: for an int or real, a variable assigned in each.
    if (f.returnType.arrayRank > 0 || (f.returnType.elem != ElemKind::Int && f.returnType.elem != ElemKind::Real)) {
      diags_.error(body.back()->span, "pvic inlines functions: a function returning " + typeName(f.returnType) +
                                          " needs one 'return' at the end of its body");
      return false;
    }
    StmtPtr tail = std::move(body.back());
    body.pop_back();
    if (!noReturnIn(body, f)) return false;
    body.push_back(declStmt(f.returnType.elem, result, callSpan, f.returnType.span, f.nameSpan));
    if (!assignReturns(*tail, result, f)) return false;
    body.push_back(std::move(tail));
    return true;
  }

  static bool endsInReturn(const Stmt& s) {
    if (s.kind == StmtKind::Return) return true;
    if (s.kind == StmtKind::Block) return !s.body.empty() && endsInReturn(*s.body.back());
    if (s.kind == StmtKind::If) return s.body.size() == 2 && endsInReturn(*s.body[0]) && endsInReturn(*s.body[1]);
    return false;
  }

  // The returns of a tail statement (see endsInReturn) as assignments to `result`.
  bool assignReturns(Stmt& s, const std::string& result, const FunctionDef& f) {
    if (s.kind == StmtKind::Return) {
      s = std::move(*assignStmt(result, std::move(s.exprs[0]), s.span));
      return true;
    }
    if (s.kind == StmtKind::Block) {
      for (size_t i = 0; i + 1 < s.body.size(); ++i)
        if (!noReturnIn(*s.body[i], f)) return false;
      return assignReturns(*s.body.back(), result, f);
    }
    return assignReturns(*s.body[0], result, f) && assignReturns(*s.body[1], result, f);
  }

  bool noReturnIn(std::vector<StmtPtr>& stmts, const FunctionDef& f) {
    for (StmtPtr& s : stmts)
      if (!noReturnIn(*s, f)) return false;
    return true;
  }

  bool noReturnIn(const Stmt& s, const FunctionDef& f) {
    if (s.kind == StmtKind::Return) {
      diags_.error(s.span, "pvic inlines functions: a 'return' must end the body of '" + f.name +
                               "' (or, for an int or real result, each branch of an if/else that ends it)");
      return false;
    }
    for (const StmtPtr& b : s.body)
      if (!noReturnIn(*b, f)) return false;
    return true;
  }

  Program& p_;
  Diagnostics& diags_;
  std::map<std::string, FunctionDef*> byName_;
  std::vector<const FunctionDef*> defined_;
  std::vector<std::string> stack_;  // the functions being inlined, outermost first
  int counter_ = 0;
};

}  // namespace

// Runs on every program: it is also where _lupdf / _lupmf become _lpdf / _lpmf.
void inlineFunctions(Program& program, Diagnostics& diags) { Inliner(program, diags).run(); }

}  // namespace pvi
