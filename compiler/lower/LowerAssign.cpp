// Assignment. Variables are SSA values: `x = e` at the level of x's declaration just rebinds
// x, and `x[i] = e` there makes a new Var, a copy of x with the part replaced. A loop or branch
// that assigns a variable declared outside it holds that variable in a Var for its duration:
// assignments Store into it and reads Load from it; afterwards the Var is x's value again.
//
// The gradient replays each iteration of a loop body backwards (compiler/ad). For the replay to
// see that iteration's values, a Load inside loops of a factor function keeps one copy per
// iteration (its slot: the iteration's position in the loop nest), which the replay reads
// back instead of the Var, whose contents by then are final.
#include <algorithm>

#include "compiler/lower/FunctionLowerer.hpp"
#include "stdlib/Ops.hpp"

namespace pvi::lower {

using ir::Elem;
using ir::Inst;
using ir::Op;
using ir::ValueId;
using ir::VType;

namespace {

void symbolsOf(const Expr& e, std::set<const Symbol*>& out) {
  if (e.kind == ExprKind::Name && e.symbol) out.insert(e.symbol);
  for (const ExprPtr& a : e.args) symbolsOf(*a, out);
  for (const IndexSyntax& i : e.indices) {
    if (i.lo) symbolsOf(*i.lo, out);
    if (i.hi) symbolsOf(*i.hi, out);
  }
}

void symbolsReadIn(const Stmt& s, std::set<const Symbol*>& out) {
  for (const ExprPtr& e : s.exprs) symbolsOf(*e, out);
  if (s.declType) {
    for (const ExprPtr& e : s.declType->arrayDims) symbolsOf(*e, out);
    for (const ExprPtr& e : s.declType->elemDims) symbolsOf(*e, out);
  }
  for (const StmtPtr& b : s.body) symbolsReadIn(*b, out);
}

bool callsRng(const Expr& e) {
  if (e.kind == ExprKind::Call && stdlib::findRngOp(e.text) != nullptr) return true;
  for (const ExprPtr& a : e.args)
    if (callsRng(*a)) return true;
  for (const IndexSyntax& i : e.indices)
    if ((i.lo && callsRng(*i.lo)) || (i.hi && callsRng(*i.hi))) return true;
  return false;
}

const Expr* assignedRoot(const Expr* e) {
  while (e->kind == ExprKind::Index) e = e->args[0].get();
  return e;
}

}  // namespace

// Which variables this function needs (those read by its statements, or its outputs, and what
// they are computed from), which are lowered at their declaration, and which loops, branches
// and blocks it enters.
void FunctionLowerer::analyse(BlockKind kind, const std::set<const Symbol*>& outputs) {
  std::set<const Symbol*> roots = outputs;
  std::vector<const Expr*> control;
  for (const Block& b : p_.program.blocks)
    if (b.kind == kind && b.partition == blockPartition_) analyseStatements(b.stmts, control, roots, true);
  std::vector<const Symbol*> work(roots.begin(), roots.end());
  needed_ = roots;
  while (!work.empty()) {
    const Symbol* s = work.back();
    work.pop_back();
    for (const Symbol* d : deps_[s])
      if (needed_.insert(d).second) work.push_back(d);
  }
  // A declaration that reads a reassigned variable must see the value at its position.
  for (const auto& [s, reads] : initReads_) {
    for (const Symbol* r : reads)
      if (reassigned_.count(r)) eager_.insert(s);
  }
  for (const Symbol* s : reassigned_) eager_.insert(s);
  for (const Block& b : p_.program.blocks)
    if (b.kind == kind && b.partition == blockPartition_) analyseStatements(b.stmts, control, roots, false);
}

// A declaration waiting for its first use that a loop reads is lowered before the loop, in
// source order: at its first use inside, it would be computed again in every iteration (and in
// every iteration of the gradient's replay). Its value cannot change in the loop: a declaration
// that reads a reassigned variable is lowered eagerly, at its position.
void FunctionLowerer::lowerPendingReadIn(const Stmt& loop) {
  std::set<const Symbol*> reads;
  symbolsReadIn(loop, reads);
  std::vector<const Stmt*> decls;
  for (const Symbol* s : reads) {
    auto pending = pendingDecls_.find(s);
    if (pending != pendingDecls_.end() && needed(s) && !values_.count(s) && !buffers_.count(s))
      decls.push_back(pending->second);
  }
  std::sort(decls.begin(), decls.end(), [](const Stmt* a, const Stmt* b) { return a->span.begin < b->span.begin; });
  for (const Stmt* d : decls)
    if (!values_.count(d->declared)) lowerPending(*d);  // else lowered as part of an earlier one
}

// First pass (collectRoots): dependencies, reassigned variables, the variables each loop and
// branch assigns, and the roots. Second pass: the statements worth entering.
void FunctionLowerer::analyseStatements(const std::vector<StmtPtr>& stmts, std::vector<const Expr*>& control,
                                        std::set<const Symbol*>& roots, bool collectRoots) {
  auto withControl = [&](std::set<const Symbol*>& out) {
    for (const Expr* c : control) symbolsOf(*c, out);
  };
  for (const StmtPtr& sp : stmts) {
    const Stmt& s = *sp;
    switch (s.kind) {
      case StmtKind::Decl:
        if (collectRoots) {
          std::set<const Symbol*>& d = deps_[s.declared];
          for (const ExprPtr& e : s.declType->arrayDims) symbolsOf(*e, d);
          for (const ExprPtr& e : s.declType->elemDims) symbolsOf(*e, d);
          for (const ExprPtr* b : {&s.declType->lower, &s.declType->upper})  // checked on output
            if (*b) symbolsOf(**b, d);
          std::set<const Symbol*>& init = initReads_[s.declared];
          if (!s.exprs.empty()) symbolsOf(*s.exprs[0], init);
          // A random draw happens once, where it is written: lowered at first use, it could be
          // drawn again after a loop or branch that used it.
          if (!s.exprs.empty() && callsRng(*s.exprs[0])) eager_.insert(s.declared);
          d.insert(init.begin(), init.end());
          withControl(d);
        }
        break;
      case StmtKind::Assign: {
        const Symbol* v = assignedRoot(s.exprs[0].get())->symbol;
        if (collectRoots) {
          reassigned_.insert(v);
          std::set<const Symbol*>& d = deps_[v];
          symbolsOf(*s.exprs[0], d);
          symbolsOf(*s.exprs[1], d);
          withControl(d);
        }
        break;
      }
      case StmtKind::Tilde:
      case StmtKind::Target:
        if (collectRoots && inThisFactor(s)) {
          for (const ExprPtr& e : s.exprs) symbolsOf(*e, roots);
          withControl(roots);
        }
        break;
      case StmtKind::Call:  // print, reject, fatal_error: what they read is needed
        if (collectRoots && isPrintStatement(s) && inThisFactor(s)) {
          for (const ExprPtr& e : s.exprs[0]->args) symbolsOf(*e, roots);
          withControl(roots);
        }
        break;
      case StmtKind::For:
      case StmtKind::If:
      case StmtKind::While:
      case StmtKind::Block: {
        size_t depth = control.size();
        if (s.kind != StmtKind::Block)
          for (const ExprPtr& e : s.exprs) control.push_back(e.get());
        analyseStatements(s.body, control, roots, collectRoots);
        control.resize(depth);
        break;
      }
      case StmtKind::Return: break;  // refused by the checker (inlining replaces them)
    }
  }
  if (collectRoots) return;
  // Second pass: a statement is entered when it holds a statement of this factor or assigns a
  // variable this function needs; loops and branches note which variables they assign.
  for (const StmtPtr& sp : stmts) {
    const Stmt& s = *sp;
    bool enter = false;
    std::vector<const Symbol*> assigned;
    auto scan = [&](auto&& self, const Stmt& x) -> void {
      if (inThisFactor(x)) enter = true;
      if (x.kind == StmtKind::Assign) {
        const Symbol* v = assignedRoot(x.exprs[0].get())->symbol;
        if (needed(v)) {
          enter = true;
          if (std::find(assigned.begin(), assigned.end(), v) == assigned.end()) assigned.push_back(v);
        }
      }
      for (const StmtPtr& b : x.body) self(self, *b);
    };
    if (s.kind == StmtKind::For || s.kind == StmtKind::If || s.kind == StmtKind::While || s.kind == StmtKind::Block) {
      scan(scan, s);
      if (enter) relevant_.insert(&s);
      if (s.kind != StmtKind::Block) assignedIn_[&s] = assigned;
    }
  }
}

void FunctionLowerer::declaration(const Stmt& s) { values_[s.declared] = declaredValue(s); }

void FunctionLowerer::assignment(const Stmt& s) {
  // x[i][j] is x[i, j] when the inner indices are single ints; other chains are refused.
  std::vector<const Expr*> levels;  // outermost first
  const Expr* root = s.exprs[0].get();
  while (root->kind == ExprKind::Index) {
    levels.push_back(root);
    root = root->args[0].get();
  }
  const Symbol* v = root->symbol;
  if (!needed(v)) return;
  const Symbol* outer = assigning_;
  assigning_ = v;
  struct Restore {
    const Symbol*& slot;
    const Symbol* value;
    ~Restore() { slot = value; }
  } restore{assigning_, outer};
  std::vector<const IndexSyntax*> idx;
  for (size_t k = levels.size(); k-- > 0;) {
    for (const IndexSyntax& i : levels[k]->indices) {
      if (k > 0 && !(i.kind == IndexSyntax::Kind::Single && i.lo->type.isIntScalar()))
        throw Unsupported{i.span, "assigning to a part of a slice or multi-index that is indexed again"};
      idx.push_back(&i);
    }
  }
  ValueId value;
  if (s.op == "=") {
    value = lower(*s.exprs[1]);
  } else {
    ValueId current = lower(*s.exprs[0]);
    value = arithmetic(s.op.substr(0, 1), current, lower(*s.exprs[1]), s.exprs[0]->type, s.exprs[1]->type, s.span);
  }
  if (v->type.base == Base::Real) value = toReal(value);
  auto held = buffers_.find(v);
  if (held == buffers_.end()) {
    auto it = values_.find(v);
    if (it == values_.end()) throw Unsupported{root->span, "the variable '" + v->name + "' here"};
    if (idx.empty()) {
      values_[v] = value;
      return;
    }
    ValueId copy = newVar(f_.at(it->second).type, it->second);
    store(target(copy, v->type, idx), value);
    values_[v] = copy;
    return;
  }
  store(target(held->second, v->type, idx), value);
}

std::vector<const Symbol*> FunctionLowerer::enterRegion(const Stmt& s) {
  std::vector<const Symbol*> owned;
  auto it = assignedIn_.find(&s);
  if (it == assignedIn_.end()) return owned;
  for (const Symbol* v : it->second) {
    // Already held by an enclosing region, or declared inside this one.
    if (buffers_.count(v) || !values_.count(v)) continue;
    ValueId current = values_[v];
    buffers_[v] = newVar(f_.at(current).type, current);
    owned.push_back(v);
  }
  return owned;
}

void FunctionLowerer::leaveRegion(const std::vector<const Symbol*>& owned) {
  for (const Symbol* v : owned) {
    ValueId var = buffers_.at(v);
    buffers_.erase(v);
    // At the top level nothing writes the Var again: it is the value. Inside a loop or branch
    // the gradient's replay does not rerun the region, so later reads use a saved copy. Int
    // scalars are values, never buffers.
    const VType& t = f_.at(var).type;
    bool direct = nest_ == 0 && !(t.elem == Elem::Int && t.rank == 0);
    values_[v] = direct ? var : load(var);
  }
}

ValueId FunctionLowerer::newVar(const VType& t, ValueId init) {
  Inst v = ir::makeInst(Op::Var, t, {init});
  return add(v);
}

void FunctionLowerer::store(const Target& t, ValueId value) {
  Inst st = ir::makeInst(Op::Store, intScalar(), {t.view, value});
  st.operands.insert(st.operands.end(), t.subscript.begin(), t.subscript.end());
  add(st);
}

ValueId FunctionLowerer::load(ValueId view) {
  Inst l = ir::makeInst(Op::Load, f_.at(view).type, {view, ir::kNone, ir::kNone});
  const bool inWhile = std::any_of(loops_.begin(), loops_.end(), [](const Loop& loop) { return loop.isWhile; });
  if (tape_ && !loops_.empty() && !inWhile && !loops_.front().dataOnly) {
    ValueId slot = ir::kNone, slots = ir::kNone;  // row-major over the enclosing loops
    for (const Loop& loop : loops_) {
      // A loop whose bounds change with an enclosing loop's variable (a ragged loop) gets its
      // largest number of iterations.
      ValueId trips = intArith("max", intArith("+", intArith("-", loop.hi, loop.lo), constInt(1)), constInt(0));
      if (!isStatic(trips)) trips = staticUpperBound(trips);
      if (trips == ir::kNone)
        throw Unsupported{span_,
                          "reading a variable assigned in a loop or branch inside a loop whose bounds "
                          "depend on a value assigned in a loop or branch"};
      ValueId position = intArith("-", loop.var, loop.lo);
      slot = slot == ir::kNone ? position : intArith("+", intArith("*", slot, trips), position);
      slots = slots == ir::kNone ? trips : intArith("*", slots, trips);
    }
    l.operands = {view, slot, slots};
  }
  return add(l);
}

// An int that code generation computes before the function runs (it sizes buffers there):
// constants, int data, arithmetic on those, and elements of int data at the top level.
bool FunctionLowerer::isStatic(ValueId v) const {
  if (v == ir::kNone) return true;
  const Inst& i = f_.at(v);
  switch (i.op) {
    case Op::ConstInt:
    case Op::Data:
    case Op::IntExtreme: return true;
    case Op::IntArith: return isStatic(i.operands[0]) && isStatic(i.operands[1]);
    case Op::Element:
      return depth_[static_cast<size_t>(v)] == 0 && i.type.rank == 0 && f_.at(i.operands[0]).op == Op::Data &&
             isStatic(i.operands[1]);
    default: return false;
  }
}

std::optional<FunctionLowerer::IntRange> FunctionLowerer::staticRange(ValueId v) {
  if (v == ir::kNone) return std::nullopt;
  if (isStatic(v)) return IntRange{v, v};
  const Inst& i = f_.at(v);
  if (i.op == Op::LoopBegin) {
    auto loop = std::find_if(loops_.begin(), loops_.end(), [&](const Loop& l) { return l.var == v; });
    if (loop == loops_.end() || loop->isWhile) return std::nullopt;
    const ValueId lo = loop->lo, hi = loop->hi;
    std::optional<IntRange> from = staticRange(lo), to = staticRange(hi);
    if (!from || !to) return std::nullopt;
    return IntRange{from->lo, to->hi};
  }
  if (i.op == Op::Element && i.type.elem == ir::Elem::Int && i.type.rank == 0) {
    ValueId root = i.operands[0];
    while (f_.at(root).op == Op::Element) root = f_.at(root).operands[0];
    if (f_.at(root).op != Op::Data) return std::nullopt;
    auto extreme = [&](int64_t largest) {  // one scan per data variable and end, before the function runs
      auto [it, fresh] = extremes_.try_emplace({root, largest}, ir::kNone);
      if (fresh) {
        Inst e = ir::makeInst(Op::IntExtreme, intScalar(), {root});
        e.imm = largest;
        it->second = add(e);
      }
      return it->second;
    };
    return IntRange{extreme(0), extreme(1)};
  }
  if (i.op != Op::IntArith) return std::nullopt;
  const std::string op = i.name;
  const ValueId x = i.operands[0], y = i.operands[1];
  if (op == "/") {  // truncating division by a positive constant keeps the order
    const std::optional<int64_t> d = constantInt(y);
    std::optional<IntRange> a = staticRange(x);
    if (!d || *d <= 0 || !a) return std::nullopt;
    return IntRange{intArith("/", a->lo, y), intArith("/", a->hi, y)};
  }
  std::optional<IntRange> a = staticRange(x), b = staticRange(y);
  if (!a || !b) return std::nullopt;
  if (op == "+") return IntRange{intArith("+", a->lo, b->lo), intArith("+", a->hi, b->hi)};
  if (op == "-") return IntRange{intArith("-", a->lo, b->hi), intArith("-", a->hi, b->lo)};
  if (op == "min" || op == "max") return IntRange{intArith(op, a->lo, b->lo), intArith(op, a->hi, b->hi)};
  if (op == "*") {
    const ValueId p[] = {intArith("*", a->lo, b->lo), intArith("*", a->lo, b->hi), intArith("*", a->hi, b->lo),
                         intArith("*", a->hi, b->hi)};
    return IntRange{intArith("min", intArith("min", p[0], p[1]), intArith("min", p[2], p[3])),
                    intArith("max", intArith("max", p[0], p[1]), intArith("max", p[2], p[3]))};
  }
  return std::nullopt;
}

ValueId FunctionLowerer::staticUpperBound(ValueId v) {
  std::optional<IntRange> r = staticRange(v);
  return r ? intArith("max", r->hi, constInt(0)) : ir::kNone;
}

}  // namespace pvi::lower
