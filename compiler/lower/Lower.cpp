#include "compiler/lower/Lower.hpp"

#include <charconv>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "compiler/ast/AstPrint.hpp"
#include "compiler/lower/Describe.hpp"
#include "stdlib/Ops.hpp"
#include "stdlib/Signatures.hpp"

namespace pvi {

namespace {

using ir::Elem;
using ir::Inst;
using ir::Op;
using ir::ValueId;
using ir::VType;

struct Unsupported {
  Span span;
  std::string what;
};

bool isDensityCall(const std::string& name) {
  return stdlib::findDensityFunction(name) != nullptr;
}

class FunctionLowerer {
 public:
  FunctionLowerer(const CheckedProgram& p, const LoweredModel& layout, ir::Function& f, bool isPrior)
      : p_(p), layout_(layout), f_(f), isPrior_(isPrior) {
    // Looked up per statement and per declaration, so computed once.
    for (const AssignedStatement& a : p_.model) priorStatement_[a.stmt] = a.factor.isPrior();
    for (const Block& b : p_.program.blocks)
      if (b.kind == BlockKind::Model) collectAssigned(b.stmts);
  }

  // The checks of the data of `source`: every bounded variable, and every real one for NaN.
  void runDataCheck(ir::Source source) {
    bindData(layout_.sharedData, ir::Source::Shared);
    if (source == ir::Source::Partition) bindData(layout_.partitionData, ir::Source::Partition);
    const auto& syms = source == ir::Source::Shared ? layout_.sharedData : layout_.partitionData;
    for (size_t k = 0; k < syms.size(); ++k) {
      const Symbol* s = syms[k];
      const TypeSyntax& ts = *s->decl->declType;
      bool isInt = ts.elem == ElemKind::Int;
      if (isInt && !ts.lower && !ts.upper) continue;
      auto bound = [&](const ExprPtr& e) { return e ? (isInt ? intExpr(*e) : realValue(*e)) : ir::kNone; };
      Inst c{Op::CheckData, intScalar(), {values_[s], bound(ts.lower), bound(ts.upper)}, "", static_cast<int64_t>(k)};
      c.comment = s->name;
      add(c);
    }
  }

  // Constrained values of the globals and hyperparameters (or of the locals).
  void runConstrain(bool locals) {
    bindData(layout_.sharedData, ir::Source::Shared);
    if (locals) bindData(layout_.partitionData, ir::Source::Partition);
    ValueId offset = constInt(0);
    auto output = [&](const std::vector<const Symbol*>& syms, ir::Input input) {
      bindParams(syms, input, false);
      for (const Symbol* s : syms) offset = outputValue(values_[s], offset, s->name);
    };
    if (locals) {
      output(layout_.locals, ir::Input::W);
    } else {
      output(layout_.globals, ir::Input::Z);
      output(layout_.hypers, ir::Input::Theta);
    }
    f_.dimOut = offset;
  }

  // The inverse of runConstrain: constrained values (read where z, theta or w would be) to the
  // unconstrained ones.
  void runUnconstrain(bool locals) {
    bindData(layout_.sharedData, ir::Source::Shared);
    if (locals) bindData(layout_.partitionData, ir::Source::Partition);
    ValueId inOffset = constInt(0), outOffset = constInt(0);
    const auto& groups = locals ? std::vector{&layout_.locals} : std::vector{&layout_.globals, &layout_.hypers};
    for (const auto* syms : groups) {
      for (const Symbol* s : *syms) {
        VType t = typeOfDecl(*s);
        Inst x = ir::makeInst(Op::Param, t, {inOffset});
        x.input = locals ? ir::Input::W : ir::Input::Z;  // the constrained values, all in one array
        x.comment = s->name + " (constrained)";
        ValueId v = add(x);
        inOffset = intArith("+", inOffset, elementCount(t));
        const TypeSyntax& ts = *s->decl->declType;
        if (ts.lower || ts.upper) {
          std::vector<ValueId> ops{v};
          if (ts.lower) ops.push_back(realValue(*ts.lower));
          if (ts.upper) ops.push_back(realValue(*ts.upper));
          std::string kind = ts.lower && ts.upper ? "tf_lower_upper_inv" : ts.lower ? "tf_lower_inv" : "tf_upper_inv";
          Inst inv = ir::makeInst(Op::Kernel, t, ops);
          inv.name = kind;
          inv.comment = s->name;
          v = add(inv);
        }
        outOffset = outputValue(v, outOffset, s->name);
      }
    }
    f_.dimOut = outOffset;
  }

  // The generated quantities of one kind (needing only the globals, or a partition).
  void runGenerate(const std::vector<const Stmt*>& decls) {
    bindData(layout_.sharedData, ir::Source::Shared);
    if (!isPrior_) bindData(layout_.partitionData, ir::Source::Partition);
    bindParams(layout_.globals, ir::Input::Z, false);
    bindParams(layout_.hypers, ir::Input::Theta, false);
    if (!isPrior_) bindParams(layout_.locals, ir::Input::W, false);
    for (const Block& b : p_.program.blocks) {
      if (b.kind != BlockKind::Generated) continue;
      for (const StmtPtr& s : b.stmts) {
        if (s->kind != StmtKind::Decl) throw Unsupported{s->span, "statements other than declarations in 'generated'"};
        if (s->exprs.empty()) throw Unsupported{s->span, "a generated quantity declared without a value"};
        pendingDecls_[s->declared] = s.get();
      }
    }
    ValueId offset = constInt(0);
    for (const Stmt* s : decls) {
      Expr ref;
      ref.kind = ExprKind::Name;
      ref.text = s->name;
      ref.symbol = s->declared;
      offset = outputValue(name(ref), offset, s->name);
    }
    f_.dimOut = offset;
  }

  // The concrete sizes of one group's variables, as reals: each variable's array dims then its
  // vector / matrix dims (the shapes functions of factor_abi.h). Sizes depend on data only.
  void runShapes(bool partition) {
    bindData(layout_.sharedData, ir::Source::Shared);
    if (partition) bindData(layout_.partitionData, ir::Source::Partition);
    ValueId offset = constInt(0);
    auto output = [&](const Symbol& s) {
      const TypeSyntax& ts = *s.decl->declType;
      for (const auto* dims : {&ts.arrayDims, &ts.elemDims})
        for (const ExprPtr& d : *dims) offset = outputValue(toReal(intExpr(*d)), offset, s.name);
    };
    if (partition) {
      for (const Symbol* s : layout_.locals) output(*s);
      for (const Stmt* g : layout_.generatedPartition) output(*g->declared);
    } else {
      for (const auto* syms : {&layout_.globals, &layout_.hypers})
        for (const Symbol* s : *syms) output(*s);
      for (const Stmt* g : layout_.generatedShared) output(*g->declared);
    }
    f_.dimOut = offset;
  }

  ValueId outputValue(ValueId v, ValueId offset, const std::string& what) {
    Inst o = ir::makeInst(Op::Output, intScalar(), {v, offset});
    o.comment = what;
    add(o);
    return intArith("+", offset, elementCount(f_.at(v).type));
  }

  void run() {
    bindData(layout_.sharedData, ir::Source::Shared);
    if (!isPrior_) bindData(layout_.partitionData, ir::Source::Partition);
    // Every global and hyperparameter is transformed in both factors; only the prior adds
    // their log-Jacobians. Locals exist only in the partition factor, which adds theirs.
    bindParams(layout_.globals, ir::Input::Z, isPrior_);
    bindParams(layout_.hypers, ir::Input::Theta, isPrior_);
    if (!isPrior_) bindParams(layout_.locals, ir::Input::W, true);
    for (const Block& b : p_.program.blocks) {
      if (b.kind != BlockKind::Model) continue;
      for (const StmtPtr& s : b.stmts) statement(*s);
    }
  }

 private:
  ValueId add(Inst i) { return f_.add(std::move(i)); }

  ValueId constInt(int64_t v) {
    Inst i{Op::ConstInt, VType{Elem::Int, 0, {ir::kNone, ir::kNone}}, {}, "", v};
    return add(i);
  }

  static VType intScalar() { return VType{Elem::Int, 0, {ir::kNone, ir::kNone}}; }
  static VType realScalar() { return VType{Elem::Real, 0, {ir::kNone, ir::kNone}}; }

  // The IR type of a checked type, with its dims lowered from the declaration's size expressions.
  VType typeOfDecl(const Symbol& s) {
    const TypeSyntax& ts = *s.decl->declType;
    if (!ts.arrayDims.empty() && ts.elem != ElemKind::Int && ts.elem != ElemKind::Real)
      throw Unsupported{ts.span, "arrays of vectors or matrices"};
    if (ts.arrayDims.size() > 1) throw Unsupported{ts.span, "multi-dimensional arrays"};
    VType t;
    t.elem = ts.elem == ElemKind::Int ? Elem::Int : Elem::Real;
    if (!ts.arrayDims.empty()) {
      t.rank = 1;
      t.dims[0] = intExpr(*ts.arrayDims[0]);
    } else if (ts.elem == ElemKind::Vector || ts.elem == ElemKind::RowVector) {
      t.rank = 1;
      t.dims[0] = intExpr(*ts.elemDims[0]);
    } else if (ts.elem == ElemKind::Matrix) {
      t.rank = 2;
      t.dims[0] = intExpr(*ts.elemDims[0]);
      t.dims[1] = intExpr(*ts.elemDims[1]);
    }
    return t;
  }

  void bindData(const std::vector<const Symbol*>& syms, ir::Source source) {
    for (size_t k = 0; k < syms.size(); ++k) {
      const Symbol* s = syms[k];
      Inst i{Op::Data, typeOfDecl(*s), {}, "", static_cast<int64_t>(k)};
      i.source = source;
      i.comment = s->name;
      values_[s] = add(i);
    }
  }

  ValueId elementCount(const VType& t) {
    if (t.rank == 0) return constInt(1);
    if (t.rank == 1) return t.dims[0];
    return intArith("*", t.dims[0], t.dims[1]);
  }

  ValueId intArith(const std::string& op, ValueId a, ValueId b) {
    Inst i{Op::IntArith, intScalar(), {a, b}, op};
    return add(i);
  }

  void bindParams(const std::vector<const Symbol*>& syms, ir::Input input, bool addJacobian) {
    ValueId offset = constInt(0);
    for (const Symbol* s : syms) {
      VType t = typeOfDecl(*s);
      Inst param{Op::Param, t, {offset}};
      param.input = input;
      param.comment = s->name + " (unconstrained)";
      ValueId u = add(param);
      offset = intArith("+", offset, elementCount(t));
      const TypeSyntax& ts = *s->decl->declType;
      if (!ts.lower && !ts.upper) {
        values_[s] = u;
        continue;
      }
      std::vector<ValueId> ops{u};
      std::string kind = ts.lower && ts.upper ? "tf_lower_upper" : ts.lower ? "tf_lower" : "tf_upper";
      if (ts.lower) ops.push_back(realValue(*ts.lower));
      if (ts.upper) ops.push_back(realValue(*ts.upper));
      Inst tf{Op::Kernel, t, ops, kind, addJacobian ? 1 : 0};
      tf.comment = s->name;
      values_[s] = add(tf);
    }
    ValueId& dim = input == ir::Input::Z ? f_.dimZ : input == ir::Input::W ? f_.dimW : f_.dimTheta;
    dim = offset;  // the total length of this input
  }

  // Model statements ------------------------------------------------------------------------

  bool inThisFactor(const Stmt& s) const {
    auto it = priorStatement_.find(&s);
    return it != priorStatement_.end() && it->second == isPrior_;
  }

  bool containsFactorStatement(const Stmt& s) const {
    if (inThisFactor(s)) return true;
    for (const StmtPtr& b : s.body)
      if (containsFactorStatement(*b)) return true;
    return false;
  }

  void statement(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Decl:
        if (reassigned_.count(s.declared)) {
          pendingDecls_.erase(s.declared);
          unsupportedVars_[s.declared] = s.span;
        } else {
          pendingDecls_[s.declared] = &s;
        }
        return;
      case StmtKind::Tilde: {
        if (!inThisFactor(s)) return;
        std::vector<ValueId> args;
        for (const ExprPtr& e : s.exprs) args.push_back(lower(*e));  // density() converts to real
        const auto* d = stdlib::findDistribution(s.name);
        ValueId lp = density(s.name + (d->discrete ? "_lpmf" : "_lpdf"), args, s.span);
        addTarget(lp, s);
        return;
      }
      case StmtKind::Target: {
        if (!inThisFactor(s)) return;
        ValueId v = realValue(*s.exprs[0]);
        if (f_.at(v).type.rank > 0) v = kernel("sum", realScalar(), {v});
        addTarget(v, s);
        return;
      }
      case StmtKind::Assign:
        return;  // reassigned variables are refused where they are used
      case StmtKind::For: {
        if (!containsFactorStatement(s)) return;
        ValueId lo = intExpr(*s.exprs[0]);
        ValueId hi = intExpr(*s.exprs[1]);
        Inst begin{Op::LoopBegin, intScalar(), {lo, hi}};
        begin.comment = "for " + s.name;
        ValueId loop = add(begin);
        Scope scope(*this);
        values_[s.declared] = loop;
        statement(*s.body[0]);
        scope.restore();
        add(Inst{Op::LoopEnd, intScalar(), {loop}});
        return;
      }
      case StmtKind::If: {
        if (!containsFactorStatement(s)) return;
        ValueId cond = condition(*s.exprs[0]);
        ValueId begin = add(Inst{Op::IfBegin, intScalar(), {cond}});
        {
          Scope scope(*this);
          statement(*s.body[0]);
        }
        if (s.body.size() > 1) {
          add(Inst{Op::Else, intScalar(), {begin}});
          Scope scope(*this);
          statement(*s.body[1]);
        }
        add(Inst{Op::IfEnd, intScalar(), {begin}});
        return;
      }
      case StmtKind::Block: {
        if (!containsFactorStatement(s)) return;
        Scope scope(*this);
        for (const StmtPtr& b : s.body) statement(*b);
        return;
      }
    }
  }

  // Values computed inside a loop or branch are not visible after it: a declaration outside
  // first used inside is computed again after it (its memoised value would not dominate).
  struct Scope {
    FunctionLowerer& self;
    std::map<const Symbol*, ValueId> values;
    std::map<const Symbol*, const Stmt*> pending;
    bool restored = false;
    explicit Scope(FunctionLowerer& s) : self(s), values(s.values_), pending(s.pendingDecls_) {}
    void restore() {
      if (restored) return;
      restored = true;
      self.values_ = values;
      self.pendingDecls_ = pending;
    }
    ~Scope() { restore(); }
  };

  // An int condition: comparisons and logic on int or real scalars; any other scalar is
  // compared with zero.
  ValueId condition(const Expr& e) {
    auto compare = [&](const std::string& op, std::vector<ValueId> ops) {
      return add(Inst{Op::Compare, intScalar(), std::move(ops), op});
    };
    if (e.kind == ExprKind::Binary) {
      static const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
      for (const char* op : ops)
        if (e.text == op) return compare(op, {lower(*e.args[0]), lower(*e.args[1])});
      if (e.text == "&&" || e.text == "||") return compare(e.text, {condition(*e.args[0]), condition(*e.args[1])});
    }
    if (e.kind == ExprKind::Unary && e.text == "!") return compare("!", {condition(*e.args[0])});
    ValueId v = lower(e);
    if (f_.at(v).type.rank != 0) throw Unsupported{e.span, "a non-scalar condition"};
    return compare("!=", {v, constInt(0)});
  }

  // Model variables assigned after their declaration (not lowered yet).
  void collectAssigned(const std::vector<StmtPtr>& stmts) {
    for (const StmtPtr& s : stmts) {
      if (s->kind == StmtKind::Assign) {
        const Expr* root = s->exprs[0].get();
        while (root->kind == ExprKind::Index) root = root->args[0].get();
        reassigned_.insert(root->symbol);
      }
      collectAssigned(s->body);
    }
  }

  void addTarget(ValueId v, const Stmt& s) {
    Inst i{Op::AddTarget, realScalar(), {v}};
    i.comment = oneLine(s);
    add(i);
  }

  static std::string oneLine(const Stmt& s) {
    if (s.kind == StmtKind::Tilde) {
      std::string t = printExpr(*s.exprs[0]) + " ~ " + s.name + "(";
      for (size_t i = 1; i < s.exprs.size(); ++i) t += (i > 1 ? ", " : "") + printExpr(*s.exprs[i]);
      return t + ")";
    }
    return "target += " + printExpr(*s.exprs[0]);
  }

  // Expressions ------------------------------------------------------------------------------

  ValueId kernel(const std::string& name, VType t, std::vector<ValueId> ops) {
    Inst i{Op::Kernel, t, std::move(ops), name};
    return add(i);
  }

  ValueId density(const std::string& name, std::vector<ValueId> args, Span at) {
    const auto* op = stdlib::findKernelOp(name);
    if (op == nullptr) throw Unsupported{at, "the density " + name};
    for (size_t k = 0; k < args.size(); ++k)
      if (!(k < op->intArgs.size() && op->intArgs[k])) args[k] = toReal(args[k]);
    return kernel(name, realScalar(), args);
  }

  // An expression as a real value (int scalars converted).
  ValueId realValue(const Expr& e) { return toReal(lower(e)); }

  ValueId toReal(ValueId v) {
    const Inst& i = f_.at(v);
    if (i.type.elem == Elem::Real) return v;
    if (i.type.rank != 0) throw Unsupported{{}, "int arrays in real arithmetic"};
    Inst c{Op::ToReal, realScalar(), {v}};
    return add(c);
  }

  ValueId intExpr(const Expr& e) {
    ValueId v = lower(e);
    if (f_.at(v).type.elem != Elem::Int || f_.at(v).type.rank != 0) throw Unsupported{e.span, "a non-int size"};
    return v;
  }

  ValueId lower(const Expr& e) {
    switch (e.kind) {
      case ExprKind::IntLit: {
        int64_t v = 0;
        std::from_chars(e.text.data(), e.text.data() + e.text.size(), v);
        return constInt(v);
      }
      case ExprKind::RealLit: {
        Inst i{Op::ConstReal, realScalar()};
        i.fimm = std::stod(e.text);
        return add(i);
      }
      case ExprKind::Name: return name(e);
      case ExprKind::Unary: {
        if (e.text == "+") return lower(*e.args[0]);
        if (e.text == "!") throw Unsupported{e.span, "'!'"};
        ValueId a = lower(*e.args[0]);
        if (f_.at(a).type.elem == Elem::Int) return intArith("-", constInt(0), a);
        return kernel("neg", f_.at(a).type, {a});
      }
      case ExprKind::Transpose: {
        ValueId a = realValue(*e.args[0]);
        const VType& t = f_.at(a).type;
        if (t.rank == 1) return a;  // vector <-> row_vector: the same buffer
        VType out{Elem::Real, 2, {t.dims[1], t.dims[0]}};
        return kernel("transpose", out, {a});
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::Call: return call(e);
      case ExprKind::Index: return index(e);
      case ExprKind::Cond: throw Unsupported{e.span, "the conditional operator"};
    }
    throw Unsupported{e.span, "this expression"};
  }

  ValueId name(const Expr& e) {
    const Symbol* s = e.symbol;
    auto it = values_.find(s);
    if (it != values_.end()) return it->second;
    auto pending = pendingDecls_.find(s);
    if (pending != pendingDecls_.end()) {
      const Stmt& decl = *pending->second;
      if (decl.exprs.empty()) throw Unsupported{decl.span, "a variable declared without a value"};
      ValueId v = lower(*decl.exprs[0]);
      if (s->type.base == Base::Real) v = toReal(v);
      values_[s] = v;
      return v;
    }
    if (unsupportedVars_.count(s)) throw Unsupported{unsupportedVars_[s], "variables assigned after their declaration"};
    throw Unsupported{e.span, "the variable '" + e.text + "' here"};
  }

  // Broadcast shape of two operands: the container's type, or a scalar.
  static VType broadcastType(const VType& a, const VType& b) {
    VType t = a.rank >= b.rank ? a : b;
    t.elem = Elem::Real;
    return t;
  }

  ValueId binary(const Expr& e) {
    const std::string& op = e.text;
    ValueId a = lower(*e.args[0]);
    ValueId b = lower(*e.args[1]);
    const VType ta = f_.at(a).type, tb = f_.at(b).type;
    if (ta.elem == Elem::Int && tb.elem == Elem::Int && ta.rank == 0 && tb.rank == 0 &&
        (op == "+" || op == "-" || op == "*" || op == "/" || op == "%"))
      return intArith(op, a, b);
    if (op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" || op == "&&" || op == "||")
      throw Unsupported{e.span, "comparisons outside conditions"};
    a = toReal(a);
    b = toReal(b);
    const Type& la = e.args[0]->type;
    const Type& lb = e.args[1]->type;
    if (op == "*" && !la.isScalar() && !lb.isScalar()) {
      if (la.shape == Shape::Matrix && lb.shape == Shape::Vector)
        return kernel("matvec", VType{Elem::Real, 1, {ta.dims[0], ir::kNone}}, {a, b});
      if (la.shape == Shape::RowVector && lb.shape == Shape::Matrix)
        return kernel("vecmat", VType{Elem::Real, 1, {tb.dims[1], ir::kNone}}, {a, b});
      if (la.shape == Shape::Matrix && lb.shape == Shape::Matrix)
        return kernel("matmul", VType{Elem::Real, 2, {ta.dims[0], tb.dims[1]}}, {a, b});
      if (la.shape == Shape::RowVector && lb.shape == Shape::Vector) return kernel("dot", realScalar(), {a, b});
      if (la.shape == Shape::Vector && lb.shape == Shape::RowVector)
        return kernel("matmul", VType{Elem::Real, 2, {ta.dims[0], tb.dims[0]}}, {a, b});
    }
    static const std::map<std::string, std::string> ew = {{"+", "ew_add"}, {"-", "ew_sub"}, {"*", "ew_mul"},
                                                          {".*", "ew_mul"}, {"/", "ew_div"}, {"./", "ew_div"},
                                                          {"^", "ew_pow"}, {".^", "ew_pow"}};
    auto it = ew.find(op);
    if (it == ew.end()) throw Unsupported{e.span, "operator '" + op + "'"};
    return kernel(it->second, broadcastType(f_.at(a).type, f_.at(b).type), {a, b});
  }

  ValueId call(const Expr& e) {
    const std::string& fn = e.text;
    if (isDensityCall(fn)) {
      std::vector<ValueId> args;
      for (const ExprPtr& a : e.args) args.push_back(lower(*a));
      return density(fn, args, e.nameSpan);
    }
    if (fn == "rows" || fn == "cols" || fn == "size") {
      ValueId a = lower(*e.args[0]);
      const VType& t = f_.at(a).type;
      if (fn == "cols" && t.rank == 2) return t.dims[1];
      if (fn == "rows" && t.rank == 1 && e.args[0]->type.shape == Shape::RowVector) return constInt(1);
      if (fn == "cols" && t.rank == 1 && e.args[0]->type.shape == Shape::Vector) return constInt(1);
      return t.dims[0];
    }
    if (fn == "rep_vector" || fn == "rep_row_vector") {
      ValueId x = realValue(*e.args[0]);
      return kernel("fill", VType{Elem::Real, 1, {intExpr(*e.args[1]), ir::kNone}}, {x});
    }
    if (fn == "rep_matrix" && e.args[0]->type.isScalar()) {
      ValueId x = realValue(*e.args[0]);
      return kernel("fill", VType{Elem::Real, 2, {intExpr(*e.args[1]), intExpr(*e.args[2])}}, {x});
    }
    if (fn == "transpose") {
      ValueId a = realValue(*e.args[0]);
      const VType& t = f_.at(a).type;
      if (t.rank == 1) return a;
      return kernel("transpose", VType{Elem::Real, 2, {t.dims[1], t.dims[0]}}, {a});
    }
    if (fn == "to_vector") {  // column-major storage: the same buffer, seen as one vector
      ValueId a = realValue(*e.args[0]);
      const VType& t = f_.at(a).type;
      if (t.rank <= 1) return a;
      Inst r{Op::Reshape, VType{Elem::Real, 1, {elementCount(t), ir::kNone}}, {a}};
      return add(r);
    }
    std::vector<ValueId> args;
    for (const ExprPtr& a : e.args) args.push_back(realValue(*a));
    auto type = [&](size_t i) { return f_.at(args[i]).type; };
    if (args.size() == 1) {
      if (fn == "sum" || fn == "mean" || fn == "log_sum_exp") {
        if (fn == "sum" && e.args[0]->type.base == Base::Int) throw Unsupported{e.span, "sum of ints"};
        return kernel(fn, realScalar(), args);
      }
      if (stdlib::findKernelOp(fn) && stdlib::findKernelOp(fn)->conv == stdlib::CallConv::Unary)
        return kernel(fn, type(0), args);
    }
    if (fn == "dot_product") return kernel("dot", realScalar(), args);
    if (fn == "pow" || fn == "fmax" || fn == "fmin") return kernel(fn + "2", realScalar(), args);
    if (fn == "log_sum_exp" && args.size() == 2) return kernel("log_sum_exp2", realScalar(), args);
    if (fn == "log_mix") return kernel("log_mix", realScalar(), args);
    throw Unsupported{e.nameSpan, "the function '" + fn + "' with these arguments"};
  }

  ValueId index(const Expr& e) {
    ValueId base = lower(*e.args[0]);
    const Type& bt = e.args[0]->type;
    if (bt.shape == Shape::Matrix && !bt.isArray()) {
      if (e.indices.size() == 1 && e.indices[0].kind == IndexSyntax::Kind::Single &&
          e.indices[0].lo->type.isIntScalar()) {
        ValueId i = intExpr(*e.indices[0].lo);
        const VType& t = f_.at(base).type;
        return kernel("row", VType{Elem::Real, 1, {t.dims[1], ir::kNone}}, {base, i});
      }
      if (e.indices.size() == 2 && e.indices[1].kind == IndexSyntax::Kind::Single &&
          e.indices[1].lo->type.isIntScalar()) {
        ValueId column = element(base, intExpr(*e.indices[1].lo));
        const IndexSyntax& r = e.indices[0];
        if (r.kind == IndexSyntax::Kind::Slice && !r.lo && !r.hi) return column;
        if (r.kind == IndexSyntax::Kind::Single) return indexVector(column, r, e.span);
      }
      throw Unsupported{e.span, "this matrix indexing"};
    }
    if (e.indices.size() != 1) throw Unsupported{e.span, "this indexing"};
    return indexVector(base, e.indices[0], e.span);
  }

  ValueId indexVector(ValueId base, const IndexSyntax& idx, Span at) {
    if (idx.kind != IndexSyntax::Kind::Single) throw Unsupported{idx.span, "slices"};
    ValueId i = lower(*idx.lo);
    const VType& it = f_.at(i).type;
    if (it.elem == Elem::Int && it.rank == 0) return element(base, i);
    if (it.elem == Elem::Int && it.rank == 1) {
      if (f_.at(base).type.elem == Elem::Int) throw Unsupported{at, "multi-indexing an int array"};
      return kernel("gather", VType{Elem::Real, 1, {it.dims[0], ir::kNone}}, {base, i});
    }
    throw Unsupported{at, "this index"};
  }

  ValueId element(ValueId base, ValueId i) {
    const VType& t = f_.at(base).type;
    VType out = t.rank == 2 ? VType{t.elem, 1, {t.dims[0], ir::kNone}} : VType{t.elem, 0, {ir::kNone, ir::kNone}};
    Inst el{Op::Element, out, {base, i}};
    return add(el);
  }

  const CheckedProgram& p_;
  const LoweredModel& layout_;
  ir::Function& f_;
  bool isPrior_;
  std::map<const Symbol*, ValueId> values_;
  std::map<const Symbol*, const Stmt*> pendingDecls_;
  std::map<const Symbol*, Span> unsupportedVars_;
  std::unordered_map<const Stmt*, bool> priorStatement_;  // model statement -> in the prior factor
  std::unordered_set<const Symbol*> reassigned_;
};

}  // namespace

std::optional<LoweredModel> lowerModel(const CheckedProgram& program, Diagnostics& diags) {
  LoweredModel m;
  if (program.partitions.size() > 1) {
    diags.error(Span{}, "code generation supports one partition kind; this model declares " +
                            std::to_string(program.partitions.size()));
    return std::nullopt;
  }
  if (!program.partitions.empty()) m.partitionName = program.partitions[0];
  for (const auto& s : program.symbols) {
    switch (s->kind) {
      case SymbolKind::SharedData: m.sharedData.push_back(s.get()); break;
      case SymbolKind::PartitionData: m.partitionData.push_back(s.get()); break;
      case SymbolKind::Global: m.globals.push_back(s.get()); break;
      case SymbolKind::Hyper: m.hypers.push_back(s.get()); break;
      case SymbolKind::Local: m.locals.push_back(s.get()); break;
      default: break;
    }
  }
  m.prior.name = "prior";
  m.partition.name = "partition";
  m.sharedCheck.name = "check_shared";
  m.partitionCheck.name = "check_partition";
  m.schema.partitionName = m.partitionName;
  for (auto [syms, fields] : {std::pair{&m.sharedData, &m.schema.shared}, std::pair{&m.partitionData, &m.schema.partition}})
    for (const Symbol* s : *syms) fields->push_back(describeVariable(*s));
  try {
    FunctionLowerer(program, m, m.prior, true).run();
    FunctionLowerer(program, m, m.sharedCheck, true).runDataCheck(ir::Source::Shared);
    if (!m.partitionName.empty()) {
      FunctionLowerer(program, m, m.partition, false).run();
      FunctionLowerer(program, m, m.partitionCheck, false).runDataCheck(ir::Source::Partition);
    }
    for (const AssignedStatement& g : program.generated)
      (g.factor.isPrior() ? m.generatedShared : m.generatedPartition).push_back(g.stmt);
    m.constrainGlobals.name = "constrain_globals";
    m.constrainLocals.name = "constrain_locals";
    m.generateShared.name = "generate_shared";
    m.generatePartition.name = "generate_partition";
    FunctionLowerer(program, m, m.constrainGlobals, true).runConstrain(false);
    m.unconstrainGlobals.name = "unconstrain_globals";
    m.unconstrainLocals.name = "unconstrain_locals";
    FunctionLowerer(program, m, m.unconstrainGlobals, true).runUnconstrain(false);
    FunctionLowerer(program, m, m.generateShared, true).runGenerate(m.generatedShared);
    m.shapesGlobals.name = "shapes_globals";
    FunctionLowerer(program, m, m.shapesGlobals, true).runShapes(false);
    if (!m.partitionName.empty()) {
      FunctionLowerer(program, m, m.constrainLocals, false).runConstrain(true);
      FunctionLowerer(program, m, m.unconstrainLocals, false).runUnconstrain(true);
      FunctionLowerer(program, m, m.generatePartition, false).runGenerate(m.generatedPartition);
      m.shapesPartition.name = "shapes_partition";
      FunctionLowerer(program, m, m.shapesPartition, false).runShapes(true);
    }
  } catch (Unsupported& u) {
    diags.error(u.span, "not supported by code generation yet: " + u.what);
    return std::nullopt;
  }
  m.info = describeModel(m);
  return m;
}

}  // namespace pvi
