#include "compiler/lower/Lower.hpp"

#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>

#include "compiler/ast/AstPrint.hpp"
#include "compiler/ast/AstWalk.hpp"
#include "compiler/fuse/FuseElementwise.hpp"
#include "compiler/lower/Describe.hpp"
#include "compiler/lower/FunctionLowerer.hpp"
#include "compiler/lower/OdeSystems.hpp"
#include "compiler/sema/Signatures.hpp"

namespace pvi::lower {

using ir::Elem;
using ir::Inst;
using ir::Op;
using ir::ValueId;
using ir::VType;

// Sizes the dims, counts and shapes functions cannot evaluate (they read int data scalars only).
constexpr const char* kSizeNotFromData =
    "a size of a data, parameter or generated variable that is not computed from int constants and int data "
    "scalars alone";

namespace {

// A size as the checker spells it (compiler/sema/Type.hpp: "N", "(K + 1)", "(N - 2 + 1)", "-N"),
// read back as a term over int constants and int scalar data. Anything else (a loop variable, an
// int of the model block, a function call, an element of an int array) gives nullopt: such a size
// cannot be evaluated when data are bound.
struct SizeTerm {
  char op = 'c';  // 'c' constant, 'n' data name, 'u' negation, or one of + - * / %
  int64_t value = 0;
  const Symbol* symbol = nullptr;
  std::vector<SizeTerm> args;
};

class SizeParser {
 public:
  SizeParser(const std::string& text, const CheckedProgram& p) : t_(text), p_(p) {}
  std::optional<SizeTerm> parse() {
    std::optional<SizeTerm> r = sum();
    skip();
    if (!r || pos_ != t_.size()) return std::nullopt;
    return r;
  }

 private:
  using Next = std::optional<SizeTerm> (SizeParser::*)();
  void skip() {
    while (pos_ < t_.size() && t_[pos_] == ' ') ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ >= t_.size() || t_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  std::optional<SizeTerm> binary(Next next, const char* ops) {
    std::optional<SizeTerm> lhs = (this->*next)();
    while (lhs) {
      skip();
      if (pos_ >= t_.size() || std::strchr(ops, t_[pos_]) == nullptr) break;
      char op = t_[pos_++];
      std::optional<SizeTerm> rhs = (this->*next)();
      if (!rhs) return std::nullopt;
      SizeTerm b;
      b.op = op;
      b.args.push_back(std::move(*lhs));
      b.args.push_back(std::move(*rhs));
      lhs = std::move(b);
    }
    return lhs;
  }
  std::optional<SizeTerm> sum() { return binary(&SizeParser::product, "+-"); }
  std::optional<SizeTerm> product() { return binary(&SizeParser::unary, "*/%"); }
  std::optional<SizeTerm> unary() {
    skip();
    // A size made an int of the transformed data is named by its text ("sum(m) - 1").
    const Symbol* longest = nullptr;
    for (const auto& s : p_.symbols)
      if (s->transformed && s->name.find_first_of("() ~[],+-*/") != std::string::npos &&
          t_.compare(pos_, s->name.size(), s->name) == 0 &&
          (longest == nullptr || s->name.size() > longest->name.size()))
        longest = s.get();
    if (longest != nullptr) {
      pos_ += longest->name.size();
      SizeTerm leaf;
      leaf.op = 'n';
      leaf.symbol = longest;
      return leaf;
    }
    if (eat('-')) {
      std::optional<SizeTerm> a = unary();
      if (!a) return std::nullopt;
      SizeTerm u;
      u.op = 'u';
      u.args.push_back(std::move(*a));
      return u;
    }
    if (eat('+')) return unary();
    if (eat('(')) {
      std::optional<SizeTerm> a = sum();
      if (!a || !eat(')')) return std::nullopt;
      return a;
    }
    skip();
    const size_t begin = pos_;
    SizeTerm leaf;
    if (pos_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[pos_]))) {
      while (pos_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[pos_]))) ++pos_;
      auto [end, ec] = std::from_chars(t_.data() + begin, t_.data() + pos_, leaf.value);
      if (ec != std::errc()) return std::nullopt;
      return leaf;
    }
    while (pos_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[pos_])) || t_[pos_] == '_')) ++pos_;
    if (pos_ == begin) return std::nullopt;
    const Symbol* s = p_.find(t_.substr(begin, pos_ - begin));
    if (s == nullptr || !s->isData() || !s->type.isIntScalar()) return std::nullopt;
    leaf.op = 'n';
    leaf.symbol = s;
    return leaf;
  }

  const std::string& t_;
  const CheckedProgram& p_;
  size_t pos_ = 0;
};

bool usesTransformedData(const SizeTerm& t) {
  if (t.op == 'n') return t.symbol->transformed;
  for (const SizeTerm& a : t.args)
    if (usesTransformedData(a)) return true;
  return false;
}

bool usesPartitionData(const SizeTerm& t) {
  if (t.op == 'n') return t.symbol->kind == SymbolKind::PartitionData;
  for (const SizeTerm& a : t.args)
    if (usesPartitionData(a)) return true;
  return false;
}

// One line of source text, at most `limit` characters, for messages.
std::string excerpt(const std::string& source, Span s, size_t limit = 80) {
  std::string out;
  bool space = false;
  for (uint32_t k = s.begin; k < s.end && k < source.size(); ++k) {
    char c = source[k];
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
  return out;
}

}  // namespace

FunctionLowerer::FunctionLowerer(const CheckedProgram& p, const LoweredModel& layout, ir::Function& f, bool isPrior)
    : p_(p), layout_(layout), f_(f), isPrior_(isPrior) {
  for (const AssignedStatement& a : p_.model) priorStatement_[a.stmt] = a.factor.isPrior();
  for (const AssignedStatement& a : p_.generatedEffects) priorStatement_[a.stmt] = a.factor.isPrior();
}

// The checks of the data of `source`: every bounded variable, and every real one for NaN.
// They run before the transformed data are computed: only the data read from files are bound.
// After them (afterTransform), every variable is bound and the size checks that read transformed
// data are made.
void FunctionLowerer::runDataCheck(ir::Source source, bool afterTransform) {
  bindData(afterTransform ? layout_.sharedData : layout_.sharedFiles, ir::Source::Shared);
  if (source == ir::Source::Partition)
    bindData(afterTransform ? layout_.partitionData : layout_.partitionFiles, ir::Source::Partition);
  const auto& syms = source == ir::Source::Shared ? layout_.sharedFiles : layout_.partitionFiles;
  for (size_t k = 0; k < syms.size() && !afterTransform; ++k) {
    const Symbol* s = syms[k];
    const TypeSyntax& ts = *s->decl->declType;
    if (ts.elem == ElemKind::Int && !ts.lower && !ts.upper) continue;
    checkBounds(values_[s], ts, static_cast<int64_t>(k), s->name);
  }
  // The size equalities the checker deferred to binding: those using per-partition data in the
  // partition check, the others in the shared one.
  for (size_t k = 0; k < layout_.schema.sizeChecks.size(); ++k) {
    const SizeCheckInfo& c = layout_.schema.sizeChecks[k];
    if (c.partition != (source == ir::Source::Partition) || c.transformed != afterTransform) continue;
    std::function<ValueId(const SizeTerm&)> value = [&](const SizeTerm& t) -> ValueId {
      switch (t.op) {
        case 'c': return constInt(t.value);
        case 'n': return values_.at(t.symbol);
        case 'u': return intArith("-", constInt(0), value(t.args[0]));
        default: return intArith(std::string(1, t.op), value(t.args[0]), value(t.args[1]));
      }
    };
    ValueId a = value(*SizeParser(c.a, p_).parse());
    ValueId b = value(*SizeParser(c.b, p_).parse());
    Inst check = ir::makeInst(Op::CheckSize, intScalar(), {a, b});
    check.imm = static_cast<int64_t>(k);
    check.comment = c.a + " == " + c.b;
    add(check);
  }
}

// True when a local's bounds (or offset or multiplier) read a global or hyperparameter: then its
// constrain and unconstrain maps read z and theta too.
bool FunctionLowerer::localBoundsReadGlobals() const {
  bool reads = false;
  std::function<void(const Expr&)> visit = [&](const Expr& e) {
    if (e.kind == ExprKind::Name && e.symbol != nullptr &&
        (e.symbol->kind == SymbolKind::Global || e.symbol->kind == SymbolKind::Hyper))
      reads = true;
    forEachSubExpr(e, [&](const ExprPtr& a) { visit(*a); });
  };
  for (const Symbol* s : layout_.locals) {
    const TypeSyntax& ts = *s->decl->declType;
    for (const ExprPtr* b : {&ts.lower, &ts.upper, &ts.offset, &ts.multiplier})
      if (*b) visit(**b);
  }
  return reads;
}

// Constrained values of the globals and hyperparameters (or of the locals).
void FunctionLowerer::runConstrain(bool locals) {
  bindData(layout_.sharedData, ir::Source::Shared);
  if (locals) bindData(layout_.partitionData, ir::Source::Partition);
  if (locals && localBoundsReadGlobals()) {
    bindParams(layout_.globals, ir::Input::Z, false);
    bindParams(layout_.hypers, ir::Input::Theta, false);
  }
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
void FunctionLowerer::runUnconstrain(bool locals) {
  bindData(layout_.sharedData, ir::Source::Shared);
  if (locals) bindData(layout_.partitionData, ir::Source::Partition);
  if (locals && localBoundsReadGlobals()) {  // the globals unconstrained, from z and theta
    bindParams(layout_.globals, ir::Input::Z, false);
    bindParams(layout_.hypers, ir::Input::Theta, false);
  }
  ValueId inOffset = constInt(0), outOffset = constInt(0);
  const auto& groups = locals ? std::vector{&layout_.locals} : std::vector{&layout_.globals, &layout_.hypers};
  for (const auto* syms : groups) {
    for (const Symbol* s : *syms) {
      VType t = typeOfDecl(*s);
      Inst x = ir::makeInst(Op::Param, t, {inOffset});
      x.input = locals ? ir::Input::W : ir::Input::Z;  // the constrained values, all in one array
      x.comment = s->name + " (constrained)";
      ValueId v = add(x);
      values_[s] = v;  // what the bounds of later parameters read
      inOffset = intArith("+", inOffset, elementCount(t));
      const TypeSyntax& ts = *s->decl->declType;
      if (ts.constraint != VectorConstraint::None) {
        std::vector<ValueId> ops{v};
        for (ValueId size : constraintSizes(ts, t)) ops.push_back(size);
        Inst inv = ir::makeInst(Op::Kernel, unconstrainedType(*s, t), ops);
        inv.name = std::string("tf_") + constraintKeyword(ts.constraint) + "_inv";
        inv.comment = s->name;
        v = add(inv);
      } else {
        std::vector<ValueId> ops{v};
        const std::string kind = boundTransform(ts, ops);
        if (!kind.empty()) {
          Inst inv = ir::makeInst(Op::Kernel, t, ops);
          inv.name = kind + "_inv";
          inv.comment = s->name;
          v = add(inv);
        }
      }
      outOffset = outputValue(v, outOffset, s->name);
    }
  }
  f_.dimOut = outOffset;
}

// The generated quantities of one kind (needing only the globals, or a partition): the
// generated block's statements that they need, then their final values.
// The concrete sizes of one group's variables, as reals: each variable's array dims then its
// vector / matrix dims (the shapes functions of factor_abi.h). Sizes depend on data only.
void FunctionLowerer::runShapes(bool partition) {
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

// A CheckData of value v against the bounds declared in ts (and, for reals, against NaN); index
// is what a failure reports (the variable's position in its block or among the outputs).
void FunctionLowerer::checkBounds(ValueId v, const TypeSyntax& ts, int64_t index, const std::string& name) {
  const bool isInt = ts.elem == ElemKind::Int;
  auto bound = [&](const ExprPtr& b) { return b ? (isInt ? intExpr(*b) : realValue(*b)) : ir::kNone; };
  Inst c{Op::CheckData, intScalar(), {v, bound(ts.lower), bound(ts.upper)}, "", index};
  c.comment = name;
  add(c);
}

void FunctionLowerer::runGenerate(const std::vector<const Stmt*>& decls, std::vector<RngSite>& rngSites,
                                  const std::set<const Symbol*>* sharedNeeds) {
  rngSites_ = &rngSites;
  sharedNeeds_ = sharedNeeds;
  bindData(layout_.sharedData, ir::Source::Shared);
  if (!isPrior_) bindData(layout_.partitionData, ir::Source::Partition);
  bindParams(layout_.globals, ir::Input::Z, false);
  bindParams(layout_.hypers, ir::Input::Theta, false);
  if (!isPrior_) bindParams(layout_.locals, ir::Input::W, false);
  std::set<const Symbol*> outputs;
  for (const Stmt* s : decls) outputs.insert(s->declared);
  analyse(BlockKind::Generated, outputs);
  statements(BlockKind::Generated);
  ValueId offset = constInt(0);
  for (size_t k = 0; k < decls.size(); ++k) {
    const Stmt* s = decls[k];
    span_ = s->span;
    const ValueId v = valueOf(*s->declared);
    const VType& t = f_.at(v).type;
    for (int d = 0; d < t.rank; ++d)
      if (!fromIntDataScalars(t.dims[d])) throw Unsupported{s->declType->span, kSizeNotFromData};
    offset = outputValue(v, offset, s->name);
    // Declared bounds are checked on every draw, as Stan checks them (the checker allows bounds on
    // these declarations only).
    if (s->declType->lower || s->declType->upper) checkBounds(v, *s->declType, static_cast<int64_t>(k), s->name);
  }
  f_.dimOut = offset;
}

void FunctionLowerer::runTransform(bool partition, bool counts, std::vector<RngSite>& rngSites) {
  transforming_ = true;
  silent_ = counts;  // the block's print statements print once, in the values' run
  rngSites_ = &rngSites;
  bindData(partition ? layout_.sharedData : layout_.sharedFiles, ir::Source::Shared);
  if (partition) bindData(layout_.partitionFiles, ir::Source::Partition);
  std::vector<const Symbol*> outputs;
  for (const Symbol* s : partition ? layout_.partitionData : layout_.sharedData)
    if (s->transformed) outputs.push_back(s);
  blockPartition_ = partition ? layout_.partitionName : "";
  analyse(BlockKind::TransformedData, std::set<const Symbol*>(outputs.begin(), outputs.end()));
  statements(BlockKind::TransformedData);
  ValueId offset = constInt(0);
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Symbol* s = outputs[k];
    span_ = s->decl->span;
    const ValueId v = valueOf(*s);
    if (counts) {
      offset = outputValue(toReal(elementCount(f_.at(v).type)), offset, s->name);
      continue;
    }
    offset = outputValue(v, offset, s->name);
    // Stan checks the declared bounds once the block has run.
    const TypeSyntax& ts = *s->decl->declType;
    if (ts.lower || ts.upper || ts.elem != ElemKind::Int) checkBounds(v, ts, static_cast<int64_t>(k), s->name);
  }
  f_.dimOut = offset;
}

void FunctionLowerer::run() {
  tape_ = true;
  bindData(layout_.sharedData, ir::Source::Shared);
  if (!isPrior_) bindData(layout_.partitionData, ir::Source::Partition);
  // Every global and hyperparameter is transformed in both factors; only the prior adds
  // their log-Jacobians. Locals exist only in the partition factor, which adds theirs.
  bindParams(layout_.globals, ir::Input::Z, isPrior_);
  bindParams(layout_.hypers, ir::Input::Theta, isPrior_);
  if (!isPrior_) bindParams(layout_.locals, ir::Input::W, true);
  analyse(BlockKind::Model, {});
  statements(BlockKind::Model);
}

// A variable's final value, as a reference to it at the end of the function reads it.
ValueId FunctionLowerer::valueOf(const Symbol& s) {
  Expr ref;
  ref.kind = ExprKind::Name;
  ref.text = s.name;
  ref.symbol = &s;
  return name(ref);
}

ValueId FunctionLowerer::outputValue(ValueId v, ValueId offset, const std::string& what) {
  Inst o = ir::makeInst(Op::Output, intScalar(), {v, offset});
  o.comment = what;
  add(o);
  return intArith("+", offset, elementCount(f_.at(v).type));
}

ValueId FunctionLowerer::add(Inst i) {
  // A buffer is sized once, before the function runs: a size that changes inside a loop gets a
  // capacity, its largest value over the loops (ir::VType::cap).
  bool buffer = i.op == Op::Kernel || i.op == Op::Rng || i.op == Op::Var || i.op == Op::Load || i.op == Op::ToReal;
  if (buffer)
    for (int d = 0; d < i.type.rank; ++d) {
      if (i.type.cap[d] != ir::kNone || isStatic(i.type.dims[d])) continue;  // a capacity is always static
      i.type.cap[d] = staticUpperBound(i.type.dims[d]);
      if (i.type.cap[d] == ir::kNone)
        throw Unsupported{span_,
                          "a size that depends on a value assigned in a loop or branch, or on a loop "
                          "variable through more than + - * min max"};
    }
  depth_.push_back(nest_);
  if (i.site < 0) i.site = statementSite();
  return f_.add(std::move(i));
}

// The site of the statement being lowered: its index among the model's statement spans (looked up
// once per statement, not per instruction).
int32_t FunctionLowerer::statementSite() {
  if (span_.begin == 0 && span_.end == 0) return -1;
  if (siteSpan_.begin == span_.begin && siteSpan_.end == span_.end) return site_;
  std::vector<Span>& spans = layout_.statementSpans;
  size_t k = spans.size();
  while (k-- > 0 && !(spans[k].begin == span_.begin && spans[k].end == span_.end)) {
  }
  if (k == static_cast<size_t>(-1)) {
    spans.push_back(span_);
    k = spans.size() - 1;
  }
  siteSpan_ = span_;
  site_ = static_cast<int32_t>(k);
  return site_;
}

ValueId FunctionLowerer::constInt(int64_t v) {
  Inst i{Op::ConstInt, intScalar(), {}, "", v};
  return add(i);
}

ValueId FunctionLowerer::constReal(double v) {
  Inst i{Op::ConstReal, realScalar()};
  i.fimm = v;
  return add(i);
}

// True when v is computed from int constants and int data scalars only (what the size functions
// of code generation can evaluate).
bool FunctionLowerer::fromIntDataScalars(ValueId v) const {
  const Inst& i = f_.at(v);
  switch (i.op) {
    case Op::ConstInt: return true;
    case Op::Data: return i.type.elem == Elem::Int && i.type.rank == 0;
    case Op::IntArith:
      for (ValueId o : i.operands)
        if (!fromIntDataScalars(o)) return false;
      return true;
    default: return false;
  }
}

// The IR type of a declaration, with its dims lowered from the declaration's size expressions:
// the element's dims, then the array dims innermost first (see ir::VType).
VType FunctionLowerer::typeOfDecl(const Symbol& s) {
  const TypeSyntax& ts = *s.decl->declType;
  if (ts.sizesFromValue)  // never a buffer: neither arguments nor results are assigned again
    throw Unsupported{s.decl->span, "assigning to an inlined function's argument or result"};
  // Data, parameters and generated outputs are sized by the dims, counts and shapes functions,
  // which read only int scalars of the data (see Codegen's emitDims): refuse other sizes here,
  // with a position, rather than fail in code generation.
  // (Generated outputs are checked in runGenerate, where their sizes come from their values.)
  const bool sizedBeforeEvaluation =
      s.kind != SymbolKind::ModelVar && s.kind != SymbolKind::GeneratedVar && !(s.transformed && transforming_);
  auto intExpr = [&](const Expr& e) {
    // A size is computed before the function runs (FunctionLowerer::isStatic): its && and || are
    // evaluated in full, not under a branch.
    const bool outer = eagerLogic_;
    eagerLogic_ = true;
    ValueId v = this->intExpr(e);
    eagerLogic_ = outer;
    if (sizedBeforeEvaluation && !fromIntDataScalars(v)) throw Unsupported{e.span, kSizeNotFromData};
    return v;
  };
  std::vector<ValueId> dims;
  for (const ExprPtr& d : ts.elemDims) dims.push_back(intExpr(*d));
  if (ts.arrayDims.size() + dims.size() > static_cast<size_t>(ir::kMaxRank))
    throw Unsupported{ts.span, "more than " + std::to_string(ir::kMaxRank) +
                                   " dimensions in all (array dimensions plus those of a vector or matrix)"};
  for (size_t k = ts.arrayDims.size(); k-- > 0;) dims.push_back(intExpr(*ts.arrayDims[k]));
  VType t;
  t.elem = ts.elem == ElemKind::Int ? Elem::Int : Elem::Real;
  t.rank = static_cast<int>(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) t.dims[d] = dims[d];
  return t;
}

// The type of a parameter's unconstrained values: a simplex's vectors have one element fewer; a
// constrained K x K matrix is a vector of K (K - 1) / 2 values (cholesky_factor_corr, corr_matrix)
// or K (K + 1) / 2 (cov_matrix), a cholesky_factor_cov[M, N] one of N (N + 1) / 2 + (M - N) N.
VType FunctionLowerer::unconstrainedType(const Symbol& s, const VType& t) {
  const VectorConstraint c = s.decl->declType->constraint;
  if (isMatrixConstraint(c)) {
    VType u = t;
    u.rank = t.rank - 1;
    const ValueId k = t.dims[0];
    const ValueId one = constInt(1), two = constInt(2);
    if (c == VectorConstraint::CholeskyFactorCorr || c == VectorConstraint::CorrMatrix) {
      u.dims[0] = intArith("/", intArith("*", k, intArith("-", k, one)), two);
    } else {
      // M = k rows, N columns (N = K for cov_matrix): P (P + 1) / 2 + (M - P) N with P = min(M, N),
      // the elements on and below the diagonal (M < N, which makes the density zero, included).
      const ValueId n = t.dims[1];
      const ValueId p = intArith("min", k, n);
      const ValueId triangle = intArith("/", intArith("*", p, intArith("+", p, one)), two);
      u.dims[0] = intArith("+", triangle, intArith("*", intArith("-", k, p), n));
    }
    for (int d = 1; d < ir::kMaxRank; ++d) u.dims[d] = d + 1 < ir::kMaxRank ? t.dims[d + 1] : ir::kNone;
    return u;
  }
  if (c != VectorConstraint::Simplex) return t;
  VType u = t;
  u.dims[0] = intArith("max", intArith("-", t.dims[0], constInt(1)), constInt(0));  // simplex[0]: none
  return u;
}

// The operands of a constrained vector's or matrix's transform after its values: its length or
// order as a real, and a cholesky_factor_cov's number of columns.
std::vector<ValueId> FunctionLowerer::constraintSizes(const TypeSyntax& ts, const VType& t) {
  std::vector<ValueId> sizes{toReal(t.dims[0])};
  if (ts.constraint == VectorConstraint::CholeskyFactorCov) sizes.push_back(toReal(t.dims[1]));
  return sizes;
}

void FunctionLowerer::bindData(const std::vector<const Symbol*>& syms, ir::Source source) {
  for (size_t k = 0; k < syms.size(); ++k) {
    const Symbol* s = syms[k];
    Inst i{Op::Data, typeOfDecl(*s), {}, "", static_cast<int64_t>(k)};
    i.source = source;
    i.comment = s->name;
    values_[s] = add(i);
  }
}

ValueId FunctionLowerer::elementCount(const VType& t) {
  if (t.rank == 0) return constInt(1);
  ValueId n = t.dims[0];
  for (int d = 1; d < t.rank; ++d) n = intArith("*", n, t.dims[d]);
  return n;
}

ValueId FunctionLowerer::intArith(const std::string& op, ValueId a, ValueId b) {
  Inst i{Op::IntArith, intScalar(), {a, b}, op};
  return add(i);
}

// The transform of a bounded or affinely transformed real latent: its kernel's name ("" for
// none), with the bound operands appended to ops (after the unconstrained value).
std::string FunctionLowerer::boundTransform(const TypeSyntax& ts, std::vector<ValueId>& ops) {
  if (ts.offset || ts.multiplier) {
    ops.push_back(ts.offset ? realValue(*ts.offset) : constReal(0.0));
    ops.push_back(ts.multiplier ? realValue(*ts.multiplier) : constReal(1.0));
    return "tf_affine";
  }
  if (ts.lower) ops.push_back(realValue(*ts.lower));
  if (ts.upper) ops.push_back(realValue(*ts.upper));
  return ts.lower && ts.upper ? "tf_lower_upper" : ts.lower ? "tf_lower" : ts.upper ? "tf_upper" : "";
}

void FunctionLowerer::bindParams(const std::vector<const Symbol*>& syms, ir::Input input, bool addJacobian) {
  ValueId offset = constInt(0);
  for (const Symbol* s : syms) {
    VType t = typeOfDecl(*s);
    const VType ut = unconstrainedType(*s, t);
    Inst param{Op::Param, ut, {offset}};
    param.input = input;
    param.comment = s->name + " (unconstrained)";
    ValueId u = add(param);
    offset = intArith("+", offset, elementCount(ut));
    const TypeSyntax& ts = *s->decl->declType;
    if (ts.constraint != VectorConstraint::None) {
      std::vector<ValueId> ops{u};
      for (ValueId size : constraintSizes(ts, t)) ops.push_back(size);
      Inst tf{Op::Kernel, t, ops, std::string("tf_") + constraintKeyword(ts.constraint), addJacobian ? 1 : 0};
      tf.comment = s->name;
      values_[s] = add(tf);
      continue;
    }
    std::vector<ValueId> ops{u};
    const std::string kind = boundTransform(ts, ops);
    if (kind.empty()) {
      values_[s] = u;
      continue;
    }
    Inst tf{Op::Kernel, t, ops, kind, addJacobian ? 1 : 0};
    tf.comment = s->name;
    values_[s] = add(tf);
  }
  ValueId& dim = input == ir::Input::Z ? f_.dimZ : input == ir::Input::W ? f_.dimW : f_.dimTheta;
  dim = offset;  // the total length of this input
}

// Statements --------------------------------------------------------------------------------

// print / reject / fatal_error: one Print instruction, its strings in `texts` where the operand is
// kNone.
void FunctionLowerer::printStatement(const Expr& call) {
  Inst p = ir::makeInst(Op::Print, intScalar());
  p.name = call.text;
  for (const ExprPtr& a : call.args) {
    p.operands.push_back(a->kind == ExprKind::StringLit ? ir::kNone : lower(*a));
    p.texts.push_back(a->kind == ExprKind::StringLit ? a->text : std::string());
  }
  add(p);
}

bool FunctionLowerer::inThisFactor(const Stmt& s) const {
  if (transforming_) return !(silent_ && isPrintStatement(s) && s.exprs[0]->text == "print");
  auto it = priorStatement_.find(&s);
  return it != priorStatement_.end() && it->second == isPrior_;
}

void FunctionLowerer::statements(BlockKind kind) {
  for (const Block& b : p_.program.blocks)
    if (b.kind == kind && b.partition == blockPartition_)
      for (const StmtPtr& s : b.stmts) statement(*s);
}

void FunctionLowerer::statement(const Stmt& s) {
  Span outer = span_;
  span_ = s.span;
  switch (s.kind) {
    case StmtKind::Decl:
      if (!eager_.count(s.declared)) pendingDecls_[s.declared] = &s;  // lowered at its first use
      else if (needed(s.declared)) declaration(s);
      break;
    case StmtKind::Assign: assignment(s); break;
    case StmtKind::Tilde: {
      if (!inThisFactor(s)) break;
      std::vector<ValueId> args;
      for (const ExprPtr& e : s.exprs) args.push_back(lower(*e));  // density() converts to real
      const auto* d = stdlib::findDistribution(s.name);
      ValueId lp = density(s.name + (d->discrete ? "_lpmf" : "_lpdf"), args, s.span);
      addTarget(lp, s);
      break;
    }
    case StmtKind::Target: {
      if (!inThisFactor(s)) break;
      ValueId v = realValue(*s.exprs[0]);
      if (f_.at(v).type.rank > 0) v = kernel("sum", realScalar(), {v});
      addTarget(v, s);
      break;
    }
    case StmtKind::For: loop(s); break;
    case StmtKind::If: branch(s); break;
    case StmtKind::While: whileLoop(s); break;
    case StmtKind::Block:  // straight-line code: no scope of values needed
      if (relevant(s))
        for (const StmtPtr& b : s.body) statement(*b);
      break;
    case StmtKind::Call:
      if (isPrintStatement(s) && inThisFactor(s)) printStatement(*s.exprs[0]);
      break;
    case StmtKind::Return: break;  // refused by the checker (inlining replaces them)
  }
  span_ = outer;
}

// Whether any expression in s or the statements nested in it reads a latent or a variable computed
// from one (the checker's taints).
bool FunctionLowerer::readsLatent(const Stmt& s) {
  std::function<bool(const Expr&)> reads = [&](const Expr& e) {
    if (e.kind == ExprKind::Name && e.symbol != nullptr && e.symbol->taint.latent != nullptr) return true;
    bool any = false;
    forEachSubExpr(e, [&](const ExprPtr& a) { any = any || reads(*a); });
    return any;
  };
  bool any = false;
  forEachExpr(s, [&](const ExprPtr& e) { any = any || reads(*e); });
  for (const StmtPtr& b : s.body) any = any || readsLatent(*b);
  return any;
}

void FunctionLowerer::loop(const Stmt& s) {
  if (!relevant(s)) return;
  controlled_ = assignedIn_[&s];  // for the draws in the bounds (FunctionLowerer::rng)
  ValueId lo = intExpr(*s.exprs[0]);
  ValueId hi = intExpr(*s.exprs[1]);
  controlled_.clear();
  lowerPendingReadIn(s);
  std::vector<const Symbol*> owned = enterRegion(s);
  Inst begin{Op::LoopBegin, intScalar(), {lo, hi}};
  begin.comment = "for " + s.name;
  ValueId id = add(begin);
  ++nest_;
  loops_.push_back({id, lo, hi, false, loops_.empty() ? !readsLatent(s) : loops_.front().dataOnly});
  {
    Scope scope(*this);
    values_[s.declared] = id;
    statement(*s.body[0]);
  }
  loops_.pop_back();
  --nest_;
  add(Inst{Op::LoopEnd, intScalar(), {id}});
  leaveRegion(owned);
}

// `while (c) body` is a loop from 1 without an upper bound whose every iteration first evaluates
// c and leaves the loop when it is 0. Its body reads only data in factor functions (the checker's
// rule), so the gradient never replays it and its loads keep no per-iteration copies.
void FunctionLowerer::whileLoop(const Stmt& s) {
  if (!relevant(s)) return;
  lowerPendingReadIn(s);
  std::vector<const Symbol*> owned = enterRegion(s);
  const ValueId lo = constInt(1), hi = constInt(std::numeric_limits<int64_t>::max());
  Inst begin{Op::LoopBegin, intScalar(), {lo, hi}};
  begin.imm = 2;
  begin.comment = "while";
  ValueId id = add(begin);
  ++nest_;
  loops_.push_back({id, lo, hi, true});
  {
    Scope scope(*this);
    controlled_ = assignedIn_[&s];  // for the draws in the condition (FunctionLowerer::rng)
    ValueId cond = condition(*s.exprs[0]);
    controlled_.clear();
    add(Inst{Op::LoopExitUnless, intScalar(), {cond}});
    statement(*s.body[0]);
  }
  loops_.pop_back();
  --nest_;
  add(Inst{Op::LoopEnd, intScalar(), {id}});
  leaveRegion(owned);
}

void FunctionLowerer::branch(const Stmt& s) {
  if (!relevant(s)) return;
  controlled_ = assignedIn_[&s];  // for the draws in the condition (FunctionLowerer::rng)
  ValueId cond = condition(*s.exprs[0]);
  controlled_.clear();
  std::vector<const Symbol*> owned = enterRegion(s);
  ValueId begin = add(Inst{Op::IfBegin, intScalar(), {cond}});
  ++nest_;
  {
    Scope scope(*this);
    statement(*s.body[0]);
  }
  if (s.body.size() > 1) {
    --nest_;
    add(Inst{Op::Else, intScalar(), {begin}});
    ++nest_;
    Scope scope(*this);
    statement(*s.body[1]);
  }
  --nest_;
  add(Inst{Op::IfEnd, intScalar(), {begin}});
  leaveRegion(owned);
}

void FunctionLowerer::addTarget(ValueId v, const Stmt& s) {
  Inst i{Op::AddTarget, realScalar(), {v}};
  i.comment = oneLine(s);
  add(i);
}

std::string FunctionLowerer::oneLine(const Stmt& s) {
  if (s.kind == StmtKind::Tilde) {
    std::string t = printExpr(*s.exprs[0]) + " ~ " + s.name + "(";
    for (size_t i = 1; i < s.exprs.size(); ++i) t += (i > 1 ? ", " : "") + printExpr(*s.exprs[i]);
    return t + ")";
  }
  return "target += " + printExpr(*s.exprs[0]);
}

}  // namespace pvi::lower

namespace pvi {

std::optional<LoweredModel> lowerModel(const CheckedProgram& program, Diagnostics& diags, bool fuse) {
  using lower::FunctionLowerer;
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
      case SymbolKind::PartitionData:
        if (s->partition == m.partitionName) m.partitionData.push_back(s.get());
        break;
      case SymbolKind::Global: m.globals.push_back(s.get()); break;
      case SymbolKind::Hyper: m.hypers.push_back(s.get()); break;
      case SymbolKind::Local: m.locals.push_back(s.get()); break;
      default: break;
    }
  }
  for (const OdeSystemUse& u : program.odeSystems) m.odeSystems.push_back(OdeSystem{u.function, u.layout, u.call, {}});
  m.prior.name = "prior";
  m.partition.name = "partition";
  m.sharedCheck.name = "check_shared";
  m.partitionCheck.name = "check_partition";
  // The transformed data follow those from files (the checker declares them after the data blocks).
  for (auto [all, files] : {std::pair{&m.sharedData, &m.sharedFiles}, std::pair{&m.partitionData, &m.partitionFiles}})
    for (const Symbol* s : *all)
      if (!s->transformed) files->push_back(s);
  m.schema.partitionName = m.partitionName;
  for (auto [syms, fields, transformed] :
       {std::tuple{&m.sharedData, &m.schema.shared, &m.schema.transformedShared},
        std::tuple{&m.partitionData, &m.schema.partition, &m.schema.transformedPartition}})
    for (const Symbol* s : *syms) (s->transformed ? transformed : fields)->push_back(describeVariable(*s));
  // The size checks the data checks can make: both sizes computed from int constants and int
  // data scalars. (The others depend on values known only while the model runs.)
  for (const SizeCheckAtBinding& c : program.sizeChecks) {
    std::optional<lower::SizeTerm> a = lower::SizeParser(c.check.a.text, program).parse();
    std::optional<lower::SizeTerm> b = lower::SizeParser(c.check.b.text, program).parse();
    if (!a || !b) continue;
    LineCol lc = diags.file().lineCol(c.span.begin);
    SizeCheckInfo info{c.check.a.text,
                       c.check.b.text,
                       c.check.what,
                       lower::excerpt(diags.file().text(), c.whole),
                       std::to_string(lc.line) + ":" + std::to_string(lc.col),
                       lower::usesPartitionData(*a) || lower::usesPartitionData(*b),
                       lower::usesTransformedData(*a) || lower::usesTransformedData(*b)};
    bool seen = false;
    for (const SizeCheckInfo& o : m.schema.sizeChecks)
      seen = seen || (o.a == info.a && o.b == info.b && o.what == info.what && o.at == info.at);
    if (!seen) m.schema.sizeChecks.push_back(std::move(info));
  }
  try {
    FunctionLowerer(program, m, m.prior, true).run();
    FunctionLowerer(program, m, m.sharedCheck, true).runDataCheck(ir::Source::Shared);
    m.sharedCheckTransformed.name = "check_shared_transformed";
    FunctionLowerer(program, m, m.sharedCheckTransformed, true).runDataCheck(ir::Source::Shared, true);
    if (!m.partitionName.empty()) {
      FunctionLowerer(program, m, m.partition, false).run();
      FunctionLowerer(program, m, m.partitionCheck, false).runDataCheck(ir::Source::Partition);
      m.partitionCheckTransformed.name = "check_partition_transformed";
      FunctionLowerer(program, m, m.partitionCheckTransformed, false).runDataCheck(ir::Source::Partition, true);
    }
    // The generated quantities are the declarations at the top of the generated block; those
    // inside loops, branches and { } are temporaries, and so are copies of transformed data.
    std::unordered_set<const Stmt*> topLevel;
    for (const Block& b : program.program.blocks)
      if (b.kind == BlockKind::Generated)
        for (const StmtPtr& s : b.stmts)
          if (s->output) topLevel.insert(s.get());
    for (const AssignedStatement& g : program.generated)
      if (topLevel.count(g.stmt)) (g.factor.isPrior() ? m.generatedShared : m.generatedPartition).push_back(g.stmt);
    m.constrainGlobals.name = "constrain_globals";
    m.constrainLocals.name = "constrain_locals";
    m.generateShared.name = "generate_shared";
    m.generatePartition.name = "generate_partition";
    FunctionLowerer(program, m, m.constrainGlobals, true).runConstrain(false);
    m.unconstrainGlobals.name = "unconstrain_globals";
    m.unconstrainLocals.name = "unconstrain_locals";
    FunctionLowerer(program, m, m.unconstrainGlobals, true).runUnconstrain(false);
    std::vector<lower::RngSite> rngSites;
    FunctionLowerer sharedGenerate(program, m, m.generateShared, true);
    sharedGenerate.runGenerate(m.generatedShared, rngSites);
    m.shapesGlobals.name = "shapes_globals";
    FunctionLowerer(program, m, m.shapesGlobals, true).runShapes(false);
    if (!m.partitionName.empty()) {
      FunctionLowerer(program, m, m.constrainLocals, false).runConstrain(true);
      FunctionLowerer(program, m, m.unconstrainLocals, false).runUnconstrain(true);
      FunctionLowerer(program, m, m.generatePartition, false)
          .runGenerate(m.generatedPartition, rngSites, &sharedGenerate.neededVariables());
      m.shapesPartition.name = "shapes_partition";
      FunctionLowerer(program, m, m.shapesPartition, false).runShapes(true);
    }
    m.transformSharedCounts.name = "transform_shared_counts";
    m.transformShared.name = "transform_shared";
    FunctionLowerer(program, m, m.transformSharedCounts, true).runTransform(false, true, rngSites);
    FunctionLowerer(program, m, m.transformShared, true).runTransform(false, false, rngSites);
    if (!m.partitionName.empty()) {
      m.transformPartitionCounts.name = "transform_partition_counts";
      m.transformPartition.name = "transform_partition";
      FunctionLowerer(program, m, m.transformPartitionCounts, false).runTransform(true, true, rngSites);
      FunctionLowerer(program, m, m.transformPartition, false).runTransform(true, false, rngSites);
    }
    for (const lower::RngSite& r : rngSites) {
      const LineCol lc = diags.file().lineCol(r.span.begin);
      m.rngCalls.push_back(r.function + " at " + std::to_string(lc.line) + ":" + std::to_string(lc.col));
    }
    for (const Span& s : m.statementSpans) {
      const LineCol lc = diags.file().lineCol(s.begin);
      m.statements.push_back(std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": " +
                             lower::excerpt(diags.file().text(), s));
    }
    // The messages of reject and fatal_error end with where the statement is, as Stan's do:
    // "sigma is implausible (at model.stan:12:5)".
    for (ir::Function* f : {&m.prior, &m.partition, &m.generateShared, &m.generatePartition, &m.transformShared,
                            &m.transformSharedCounts, &m.transformPartition, &m.transformPartitionCounts})
      for (ir::Inst& i : f->insts) {
        if (i.op != ir::Op::Print || i.name == "print" || i.site < 0 ||
            static_cast<size_t>(i.site) >= m.statementSpans.size())
          continue;
        const LineCol lc = diags.file().lineCol(m.statementSpans[static_cast<size_t>(i.site)].begin);
        i.operands.push_back(ir::kNone);
        i.texts.push_back(" (at " + diags.file().path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) +
                          ")");
      }
  } catch (lower::Unsupported& u) {
    diags.error(u.span, "not supported by code generation yet: " + u.what);
    return std::nullopt;
  }
  if (!lowerOdeSystems(program, m, diags)) return std::nullopt;
  // The factors' element-wise arithmetic becomes one loop per tree (compiler/fuse).
  if (fuse) {
    fuseElementwise(m.prior);
    if (!m.partitionName.empty()) fuseElementwise(m.partition);
  }
  m.info = describeModel(m, diags.file().text());
  return m;
}

}  // namespace pvi
