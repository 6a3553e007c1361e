#include "compiler/sema/Checker.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "compiler/ast/AstWalk.hpp"
#include "compiler/desugar/IndexingFunctions.hpp"
#include "compiler/desugar/InlineFunctions.hpp"
#include "compiler/desugar/TransformedBlocks.hpp"
#include "compiler/sema/Check.hpp"

namespace pvi {

const char* blockKeyword(BlockKind k) {
  switch (k) {
    case BlockKind::Data: return "data";
    case BlockKind::PartitionData: return "data per";
    case BlockKind::TransformedData: return "transformed data";
    case BlockKind::TransformedParameters: return "transformed parameters";
    case BlockKind::Hyper: return "hyper";
    case BlockKind::Global: return "global";
    case BlockKind::Local: return "local per";
    case BlockKind::Model: return "model";
    case BlockKind::Generated: return "generated";
  }
  return "?";
}

const Symbol* CheckedProgram::find(const std::string& name) const {
  for (const auto& s : symbols)
    if (s->name == name) return s.get();
  return nullptr;
}

namespace {

std::string blockName(const Block& b) {
  if (b.kind == BlockKind::Local && b.partition.empty()) return "local";  // reported as an error
  std::string s = b.spelling.empty() ? blockKeyword(b.kind) : b.spelling;
  if (!b.partition.empty()) s += " " + b.partition;
  return s;
}

bool isDeclarationBlock(BlockKind k) {
  return k == BlockKind::Data || k == BlockKind::PartitionData || k == BlockKind::Hyper || k == BlockKind::Global ||
         k == BlockKind::Local;
}

SymbolKind symbolKindOf(BlockKind k) {
  switch (k) {
    case BlockKind::Data: return SymbolKind::SharedData;
    case BlockKind::PartitionData: return SymbolKind::PartitionData;
    case BlockKind::TransformedData:  // its temporaries (its top-level variables are data: Checker::checkDecl)
    case BlockKind::TransformedParameters: return SymbolKind::ModelVar;
    case BlockKind::Hyper: return SymbolKind::Hyper;
    case BlockKind::Global: return SymbolKind::Global;
    case BlockKind::Local: return SymbolKind::Local;
    case BlockKind::Model: return SymbolKind::ModelVar;
    case BlockKind::Generated: return SymbolKind::GeneratedVar;
  }
  return SymbolKind::ModelVar;
}

std::string describeVariable(const Symbol& s) {
  if (s.transformed) return "transformed data '" + s.name + "'";
  switch (s.kind) {
    case SymbolKind::SharedData: return "data '" + s.name + "'";
    case SymbolKind::PartitionData: return "per-partition data '" + s.name + "'";
    case SymbolKind::Hyper: return "hyperparameter '" + s.name + "'";
    case SymbolKind::Global: return "global latent '" + s.name + "'";
    case SymbolKind::Local: return "local latent '" + s.name + "'";
    case SymbolKind::ModelVar: return "variable '" + s.name + "'";
    case SymbolKind::GeneratedVar: return "variable '" + s.name + "'";
    case SymbolKind::LoopVar: return "loop variable '" + s.name + "'";
  }
  return "'" + s.name + "'";
}

std::string position(const SourceFile& f, Span s) {
  LineCol lc = f.lineCol(s.begin);
  return std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

void collectDeclarations(const std::vector<StmtPtr>& stmts, std::unordered_multimap<std::string, Span>& out) {
  for (const auto& s : stmts) {
    if (s->kind == StmtKind::Decl || s->kind == StmtKind::For) out.emplace(s->name, s->nameSpan);
    collectDeclarations(s->body, out);
  }
}

const Expr* assignedRoot(const Expr* e) {
  while (e->kind == ExprKind::Index) e = e->args[0].get();
  return e;
}

void collectAssigned(const std::vector<StmtPtr>& stmts, std::unordered_set<std::string>& out) {
  for (const auto& s : stmts) {
    if (s->kind == StmtKind::Assign && assignedRoot(s->exprs[0].get())->kind == ExprKind::Name)
      out.insert(assignedRoot(s->exprs[0].get())->text);
    collectAssigned(s->body, out);
  }
}

}  // namespace

CheckedProgram checkProgram(Program program, Diagnostics& diags) {
  CheckedProgram out;
  out.program = std::move(program);
  // Functions first: a transformed block's copies then carry the inlined statements, and an _lp
  // function's densities in transformed parameters reach the model block's copy only.
  rewriteIndexingFunctions(out.program);
  inlineFunctions(out.program, diags);
  inlineTransformedBlocks(out.program, diags);
  Checker(out, diags).run();
  return out;
}

void Checker::run() {
  for (const Block& b : out_.program.blocks) {
    collectDeclarations(b.stmts, allDeclarations_);
    collectAssigned(b.stmts, reassigned_);
  }
  scopes_.emplace_back();
  checkAnnotations();
  checkBlockOrder();
  for (Block& b : out_.program.blocks) checkBlock(b);
  std::unordered_set<std::string> withData(dataPartitions_.begin(), dataPartitions_.end());
  for (size_t i = 0; i < out_.partitions.size(); ++i) {
    const std::string& p = out_.partitions[i];
    if (!withData.count(p))
      diags_.warning(partitionSpans_[i], "partition '" + p + "' has no 'data per " + p + "' block");
  }
  assignFactors();
  checkOdeDataArguments();
  warnMissingPriors();
}

// Structure --------------------------------------------------------------------------------------

void Checker::checkAnnotations() {
  const Annotation* partition = nullptr;
  for (const Annotation& a : out_.program.annotations) {
    if (a.name != "partition") {
      diags_.error(a.nameSpan, "unknown annotation '@" + a.name + "'; the only annotation is @partition(NAME)");
      continue;
    }
    if (partition != nullptr) {
      Diagnostic& d = diags_.error(a.span, "duplicate @partition annotation; list every partition in one: "
                                           "@partition(a, b)");
      Diagnostics::note(d, partition->span, "first @partition annotation is here");
      continue;
    }
    partition = &a;
    std::unordered_set<std::string> seen;
    for (size_t i = 0; i < a.args.size(); ++i) {
      if (!seen.insert(a.args[i]).second) {
        diags_.error(a.argSpans[i], "partition '" + a.args[i] + "' is listed twice");
        continue;
      }
      out_.partitions.push_back(a.args[i]);
      partitionSpans_.push_back(a.argSpans[i]);
    }
  }
}

void Checker::checkBlockOrder() {
  static const char* order =
      "data, data per P, transformed data, hyper, global (parameters), local per P, transformed parameters, model, "
      "generated";
  const Block* model = nullptr;
  int lastRank = -1;
  const Block* last = nullptr;
  std::vector<const Block*> seen;
  for (const Block& b : out_.program.blocks) {
    int rank = static_cast<int>(b.kind);
    for (const Block* s : seen) {
      if (s->kind == b.kind && s->partition == b.partition) {
        // `parameters` and `global` (or `generated quantities` and `generated`) are one block.
        const bool renamed = blockName(b) != blockName(*s);
        Diagnostic& d = diags_.error(b.keywordSpan, "duplicate '" + blockName(b) + "' block" +
                                                        (renamed ? " ('" + blockName(b) + "' and '" + blockName(*s) +
                                                                       "' are two names of one block)"
                                                                 : std::string()));
        Diagnostics::note(d, s->keywordSpan, "the first '" + blockName(*s) + "' block is here");
        break;
      }
    }
    if (rank < lastRank) {
      diags_.error(b.keywordSpan, "the '" + blockName(b) + "' block must come before the '" + blockName(*last) +
                                      "' block; blocks go in the order " + order);
    } else {
      lastRank = rank;
      last = &b;
    }
    seen.push_back(&b);
    if (b.kind == BlockKind::Model) model = &b;

    if (b.kind == BlockKind::Local && b.partition.empty()) {
      diags_.error(b.keywordSpan, "a 'local' block must name its partition, as in 'local per " +
                                      (out_.partitions.empty() ? std::string("silo") : out_.partitions[0]) + "'");
    }
    if (!b.partition.empty() &&
        std::find(out_.partitions.begin(), out_.partitions.end(), b.partition) == out_.partitions.end()) {
      diags_.error(b.partitionSpan, "unknown partition '" + b.partition + "'; declare it with @partition(" +
                                        b.partition + ")");
    } else if (b.kind == BlockKind::PartitionData) {
      dataPartitions_.push_back(b.partition);
    }
  }
  if (model == nullptr) {
    uint32_t end = out_.program.blocks.empty() ? 0 : out_.program.blocks.back().span.end - 1;
    diags_.error(Span{end, end + 1}, "the program has no 'model' block");
  }
}

void Checker::checkBlock(Block& b) {
  block_ = b.kind;
  if (isDeclarationBlock(b.kind)) {
    for (StmtPtr& s : b.stmts) {
      if (s->kind != StmtKind::Decl) {
        diags_.error(s->span, "only declarations are allowed in the '" + blockName(b) + "' block");
        continue;
      }
      declareBlockVariable(b, *s);
    }
    return;
  }
  // The transformed data's top-level variables are data, visible in the blocks after theirs.
  const bool scoped = b.kind != BlockKind::TransformedData;
  currentBlock_ = &b;
  if (scoped) pushScope();
  for (StmtPtr& s : b.stmts) checkStatement(*s, b.kind);
  if (scoped) popScope();
  currentBlock_ = nullptr;
}

void Checker::declareBlockVariable(Block& b, Stmt& s) {
  SymbolKind kind = symbolKindOf(b.kind);
  Type type = resolveType(*s.declType, s.name, kind);
  for (ExprPtr& d : s.declType->arrayDims) checkDataOnly(*d, "the size of '" + s.name + "'", b);
  for (ExprPtr& d : s.declType->elemDims) checkDataOnly(*d, "the size of '" + s.name + "'", b);
  checkBounds(*s.declType, type, s.name);
  if (s.declType->constraint != VectorConstraint::None && b.kind != BlockKind::Global && b.kind != BlockKind::Local)
    diags_.error(s.declType->span, std::string("'") + constraintKeyword(s.declType->constraint) +
                                       "' is not supported in the '" + blockName(b) + "' block yet; declare a " +
                                       elemKeyword(s.declType->elem) + " here");
  if (s.declType->constraint == VectorConstraint::CholeskyFactorCov && s.declType->elemDims.size() == 2 &&
      s.declType->elemDims[0]->kind == ExprKind::IntLit && s.declType->elemDims[1]->kind == ExprKind::IntLit &&
      std::stoll(s.declType->elemDims[0]->text) < std::stoll(s.declType->elemDims[1]->text))
    diags_.error(s.declType->span, "cholesky_factor_cov[M, N] needs M >= N (at least as many rows as columns); '" +
                                       s.name + "' has " + s.declType->elemDims[0]->text + " rows and " +
                                       s.declType->elemDims[1]->text + " columns");
  checkAffine(*s.declType, type, s.name, blockName(b), b.kind);
  const std::pair<const ExprPtr*, const char*> bounds[] = {{&s.declType->lower, "the lower bound"},
                                                           {&s.declType->upper, "the upper bound"},
                                                           {&s.declType->offset, "the offset"},
                                                           {&s.declType->multiplier, "the multiplier"}};
  for (const auto& [e, what] : bounds) {
    if (!*e) continue;
    const std::string whatOf = std::string(what) + " of '" + s.name + "'";
    if (b.kind == BlockKind::Global || b.kind == BlockKind::Hyper || b.kind == BlockKind::Local)
      checkLatentBound(**e, whatOf, b);
    else
      checkDataOnly(**e, whatOf, b);
  }
  if (!s.exprs.empty()) {
    diags_.error(s.exprs[0]->span, "'" + s.name + "' in the '" + blockName(b) + "' block cannot have an initial value" +
                                       (b.kind == BlockKind::Data || b.kind == BlockKind::PartitionData
                                            ? "; data come from the data files"
                                            : "; latents and hyperparameters are inferred"));
  }
  bool latent = b.kind == BlockKind::Hyper || b.kind == BlockKind::Global || b.kind == BlockKind::Local;
  if (latent && type.base == Base::Int) {
    diags_.error(s.declType->span, "latent '" + s.name + "' is an int; latents and hyperparameters must be real-valued");
  }
  Symbol* sym = declare(s.name, kind, type, s.nameSpan, &s, b.partition);
  if (sym == nullptr) return;
  s.declared = sym;
  if (kind == SymbolKind::PartitionData || kind == SymbolKind::Local) sym->taint.partitions[b.partition] = sym;
  if (latent) sym->taint.latent = sym;
}

// The bounds (and offset and multiplier) of a latent may use data and the latents declared
// before it that its factor has: a global's, earlier globals; a hyperparameter's, earlier
// hyperparameters; a local's, globals, hyperparameters and earlier locals of its partition.
// Their transforms then run in that order (compiler/lower: bindParams).
void Checker::checkLatentBound(Expr& e, const std::string& what, const Block& b) {
  if (e.type.error) return;
  const Symbol* refused = nullptr;
  std::function<void(const Expr&)> visit = [&](const Expr& x) {
    if (x.kind == ExprKind::Name && x.symbol != nullptr && refused == nullptr) {
      const SymbolKind k = x.symbol->kind;
      const bool ok = b.kind == BlockKind::Local ? k != SymbolKind::Local || x.symbol->partition == b.partition
                      : b.kind == BlockKind::Global ? k != SymbolKind::Hyper && k != SymbolKind::Local
                                                    : k != SymbolKind::Global && k != SymbolKind::Local;
      if (!ok) refused = x.symbol;
    }
    forEachSubExpr(x, [&](const ExprPtr& a) { visit(*a); });
  };
  visit(e);
  if (refused != nullptr) {
    diags_.error(e.span, what + " uses " + describeVariable(*refused) + "; in the '" + blockName(b) +
                             "' block, bounds, offsets and multipliers may use data" +
                             (b.kind == BlockKind::Local   ? ", globals, hyperparameters and earlier locals of the partition"
                              : b.kind == BlockKind::Global ? " and earlier globals"
                                                            : " and earlier hyperparameters"));
    return;
  }
  checkPartitions(taintOf(e), e.span, what, b);
}

// Stan's offset and multiplier: on real latents without bounds or a constraint, never elsewhere.
void Checker::checkAffine(TypeSyntax& ts, const Type& varType, const std::string& varName, const std::string& block,
                          BlockKind kind) {
  if (!ts.offset && !ts.multiplier) return;
  const Span at = ts.offset ? ts.offsetSpan : ts.multiplierSpan;
  const bool latent = kind == BlockKind::Global || kind == BlockKind::Hyper || kind == BlockKind::Local;
  if (!latent) {
    diags_.error(at, "offset and multiplier belong on parameters; '" + varName + "' is in the '" + block + "' block");
    return;
  }
  if (ts.lower || ts.upper)
    diags_.error(at, "'" + varName + "' has both bounds and an offset or multiplier; Stan allows one or the other");
  else if (ts.constraint != VectorConstraint::None || varType.base == Base::Int)
    diags_.error(at, "offset and multiplier apply to real, vector, row_vector and matrix parameters only");
}

// Sizes and bounds of block variables may use data only, and only data their block can see.
void Checker::checkDataOnly(Expr& e, const std::string& what, const Block& b) {
  if (e.type.error) return;
  Taint t = taintOf(e);
  if (t.latent != nullptr) {
    diags_.error(e.span, what + " depends on " + describeVariable(*t.latent) + "; sizes and bounds may use only data");
    return;
  }
  checkPartitions(t, e.span, what, b);
}

// What a declaration of block b uses may come from b's own partition only.
void Checker::checkPartitions(const Taint& t, Span at, const std::string& what, const Block& b) {
  for (const auto& [partition, sym] : t.partitions) {
    if (partition == b.partition) continue;
    if (b.partition.empty()) {
      diags_.error(at, what + " uses " + describeVariable(*sym) + " of partition '" + partition +
                               "', but the '" + blockName(b) + "' block is shared by all partitions");
    } else {
      diags_.error(at, what + " uses " + describeVariable(*sym) + " of partition '" + partition +
                               "' in the '" + blockName(b) + "' block; a declaration cannot mix partitions");
    }
    return;
  }
}

Type Checker::resolveType(TypeSyntax& ts, const std::string& varName, SymbolKind) {
  auto dim = [&](ExprPtr& d) -> Size {
    Type t = checkExpr(*d);
    if (t.error) return Size::unknown();
    if (!t.isIntScalar()) {
      diags_.error(d->span, "the size of '" + varName + "' must be an int; found " + toString(t));
      return Size::unknown();
    }
    Size s = sizeValue(*d);
    if (s.value && *s.value < 0) {
      diags_.error(d->span, "the size of '" + varName + "' is negative (" + s.text + ")");
    }
    return s;
  };
  Type t;
  for (ExprPtr& d : ts.arrayDims) t.arrayDims.push_back(dim(d));
  switch (ts.elem) {
    case ElemKind::Int: t.base = Base::Int; break;
    case ElemKind::Real: break;
    case ElemKind::Vector: t.shape = Shape::Vector; t.rows = dim(ts.elemDims[0]); break;
    case ElemKind::RowVector: t.shape = Shape::RowVector; t.cols = dim(ts.elemDims[0]); break;
    case ElemKind::Matrix:
      t.shape = Shape::Matrix;
      t.rows = dim(ts.elemDims[0]);
      t.cols = dim(ts.elemDims[1]);
      break;
  }
  return t;
}

void Checker::checkBounds(TypeSyntax& ts, const Type& varType, const std::string& varName) {
  for (int which = 0; which < 4; ++which) {
    ExprPtr& b = which == 0 ? ts.lower : which == 1 ? ts.upper : which == 2 ? ts.offset : ts.multiplier;
    if (!b) continue;
    const char* side = which == 0 ? "the lower bound" : which == 1 ? "the upper bound" : which == 2 ? "the offset" : "the multiplier";
    Type bt = checkExpr(*b);
    if (bt.error) continue;
    std::string prefix = std::string(side) + " of '" + varName + "'";
    if (varType.base == Base::Int) {
      if (!bt.isIntScalar()) diags_.error(b->span, prefix + " must be an int; found " + toString(bt));
      continue;
    }
    if (bt.isScalar()) continue;
    if (varType.isScalar()) {
      diags_.error(b->span, prefix + " must be a real; found " + toString(bt));
      continue;
    }
    if (kindName(bt) != kindName(varType)) {
      diags_.error(b->span, prefix + " must be a real or a " + kindName(varType) + " like '" + varName + "'; found " +
                                toString(bt));
      continue;
    }
    Type target = varType;
    checkAssignable(target, bt, b->span, prefix);
  }
}

// Names ------------------------------------------------------------------------------------------

Symbol* Checker::declare(std::string name, SymbolKind kind, Type type, Span at, const Stmt* decl, std::string partition) {
  if (Symbol* prev = lookup(name)) {
    Diagnostic& d = diags_.error(at, "'" + name + "' is already declared at " + position(diags_.file(), prev->declSpan));
    Diagnostics::note(d, prev->declSpan, "previous declaration of '" + name + "'");
    return nullptr;
  }
  auto sym = std::make_unique<Symbol>();
  sym->name = std::move(name);
  sym->kind = kind;
  sym->type = std::move(type);
  sym->declSpan = at;
  sym->decl = decl;
  sym->partition = std::move(partition);
  Symbol* raw = sym.get();
  out_.symbols.push_back(std::move(sym));
  scopes_.back()[raw->name] = raw;
  return raw;
}

Symbol* Checker::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  return nullptr;
}

void Checker::reportUnknownName(const std::string& name, Span at) {
  auto range = allDeclarations_.equal_range(name);
  // A variable of a transformed block is visible only in the model and generated blocks, where
  // its statements are copied (compiler/desugar/TransformedBlocks.hpp).
  for (auto it = range.first; it != range.second; ++it)
    for (const Block& b : out_.program.blocks)
      if (b.kind == BlockKind::TransformedParameters && it->second.begin >= b.span.begin &&
          it->second.end <= b.span.end) {
        Diagnostic& d = diags_.error(at, "'" + name + "' is declared in the '" + blockKeyword(b.kind) +
                                             "' block, which pvic computes in the model and generated blocks only: "
                                             "it cannot size or bound a variable of another block (as in Stan, where "
                                             "it depends on the parameters)");
        Diagnostics::note(d, it->second, "'" + name + "' is declared here");
        return;
      }
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second.begin > at.begin) {
      Diagnostic& d = diags_.error(at, "'" + name + "' is used before its declaration at " +
                                           position(diags_.file(), it->second));
      Diagnostics::note(d, it->second, "'" + name + "' is declared here");
      return;
    }
  }
  std::vector<std::string> visible;
  auto identifier = [](const std::string& n) {  // not a size made a transformed int ("sum(m) - 1")
    return std::all_of(n.begin(), n.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  };
  for (const auto& scope : scopes_)
    for (const auto& [n, s] : scope)
      if (identifier(n)) visible.push_back(n);
  std::sort(visible.begin(), visible.end());
  std::string suggestion = closestName(name, visible);
  diags_.error(at, "undefined name '" + name + "'" + (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
}

// Statements -------------------------------------------------------------------------------------

void Checker::checkStatement(Stmt& s, BlockKind block) {
  switch (s.kind) {
    case StmtKind::Decl: checkDecl(s, block); return;
    case StmtKind::Assign: checkAssign(s, block); return;
    case StmtKind::Tilde:
      if (block == BlockKind::Generated) {
        diags_.error(s.span, "'~' statements belong in the model block, not the generated block");
        return;
      }
      checkTilde(s);
      return;
    case StmtKind::Target: {
      if (block == BlockKind::Generated) {
        diags_.error(s.span, "'target +=' belongs in the model block, not the generated block");
        return;
      }
      Type t = checkExpr(*s.exprs[0]);
      if (!t.error && t.isArray() && t.shape != Shape::Scalar) {
        diags_.error(s.exprs[0]->span, "'target +=' needs a real or a container of reals; found " + toString(t));
      }
      return;
    }
    case StmtKind::For: {
      for (ExprPtr& bound : s.exprs) {
        Type t = checkExpr(*bound);
        if (!t.error && !t.isIntScalar())
          diags_.error(bound->span, "the bounds of a for loop must be ints; found " + toString(t));
      }
      pushScope();
      s.declared = declare(s.name, SymbolKind::LoopVar, Type::intScalar(), s.nameSpan, &s);
      ++nesting_;
      checkStatement(*s.body[0], block);
      --nesting_;
      popScope();
      return;
    }
    case StmtKind::If: {
      Type t = checkExpr(*s.exprs[0]);
      if (!t.error && !t.isScalar())
        diags_.error(s.exprs[0]->span, "the condition of 'if' must be an int or a real; found " + toString(t));
      ++nesting_;
      for (StmtPtr& branch : s.body) {
        pushScope();
        checkStatement(*branch, block);
        popScope();
      }
      --nesting_;
      return;
    }
    case StmtKind::While: {
      Type t = checkExpr(*s.exprs[0]);
      if (!t.error && !t.isScalar())
        diags_.error(s.exprs[0]->span, "the condition of 'while' must be an int or a real; found " + toString(t));
      ++nesting_;
      pushScope();
      checkStatement(*s.body[0], block);
      popScope();
      --nesting_;
      return;
    }
    case StmtKind::Block:
      pushScope();
      ++nesting_;
      for (StmtPtr& sub : s.body) checkStatement(*sub, block);
      --nesting_;
      popScope();
      return;
    case StmtKind::Return:
      diags_.error(s.span, "'return' belongs in the body of a function (in the 'functions' block)");
      return;
    case StmtKind::Call: {
      const Expr& e = *s.exprs[0];
      if (isPrintStatement(s)) {
        checkPrint(s);
        return;
      }
      if (const FunctionDef* f = e.kind == ExprKind::Call ? userFunction(e.text) : nullptr) {
        // A void function left here had an error, reported where it was inlined.
        if (!f->returnsVoid)
          diags_.error(e.nameSpan, "the value of '" + e.text + "' is not used; only a void function can be a statement");
        return;
      }
      Type t = checkExpr(*s.exprs[0]);
      if (!t.error)
        diags_.error(e.span, "this expression is not a statement; a statement assigns (=), samples (~), adds to "
                             "target (+=) or calls a void function");
      return;
    }
  }
}

const FunctionDef* Checker::userFunction(const std::string& name) const {
  for (const FunctionDef& f : out_.program.functions)
    if (f.name == name) return &f;
  return nullptr;
}

// Constrained types of data, transformed data and parameters and generated quantities are
// checked (compiler/desugar/DeclaredChecks.hpp), and made plain types before the checker runs;
// those left are local variables, which Stan refuses too.
void Checker::refuseConstraint(const TypeSyntax& ts, const std::string& where) {
  diags_.error(ts.span, std::string("a local variable cannot be a ") + constraintKeyword(ts.constraint) +
                            " (here in the '" + where +
                            "' block; as in Stan, constrained types are for the variables declared at the top of "
                            "the data, parameters, transformed and generated quantities blocks); declare a " +
                            elemKeyword(ts.elem) + " here");
}

void Checker::checkDecl(Stmt& s, BlockKind block) {
  if (s.declType->constraint != VectorConstraint::None) refuseConstraint(*s.declType, blockKeyword(block));
  if (s.declType->sizesFromValue) {
    checkValueDecl(s, block);
    return;
  }
  // A top-level variable of the transformed data is data, of its partition where it reads
  // per-partition data (compiler/desugar/TransformedBlocks.hpp); an inlined function's locals
  // and the inliner's other temporaries (Stmt::output false) are temporaries.
  const bool transformedData = block == BlockKind::TransformedData && nesting_ == 0 && !s.inlined && s.output;
  const std::string partition = transformedData && currentBlock_ != nullptr ? currentBlock_->partition : "";
  const SymbolKind kind = !transformedData    ? symbolKindOf(block)
                          : partition.empty() ? SymbolKind::SharedData
                                              : SymbolKind::PartitionData;
  Type type = resolveType(*s.declType, s.name, kind);
  // Bounds on the generated quantities written out (top-level declarations of the generated
  // block) are checked on every draw, as Stan checks them; those of transformed data once they
  // are computed.
  const bool outputQuantity = (block == BlockKind::Generated && nesting_ == 0 && s.output) || transformedData;
  if (outputQuantity) checkBounds(*s.declType, type, s.name);
  if (s.declType->offset || s.declType->multiplier)
    diags_.error(s.declType->offset ? s.declType->offsetSpan : s.declType->multiplierSpan,
                 "offset and multiplier belong on parameters; '" + s.name + "' is in the " + blockKeyword(block) +
                     " block");
  if ((s.declType->lower || s.declType->upper) && !outputQuantity) {
    Span at = s.declType->lower ? s.declType->lowerSpan : s.declType->upperSpan;
    if (block == BlockKind::Generated || block == BlockKind::TransformedData)
      diags_.error(at,
                   std::string("variables declared inside loops, branches and { } cannot have bounds; ") +
                       (block == BlockKind::Generated ? "the generated quantities declared at the top of the generated"
                                                      : "those declared at the top of the transformed data") +
                       " block can");
    else
      diags_.error(at, std::string("variables declared in the ") + blockKeyword(block) +
                           " block cannot have bounds; bounds belong on data, hyperparameters, latents and "
                           "generated quantities");
  }
  if (!s.exprs.empty()) {
    Type init = checkExpr(*s.exprs[0]);
    checkAssignable(type, init, s.exprs[0]->span, "the initial value of '" + s.name + "'");
  }
  s.declared = declare(s.name, kind, type, s.nameSpan, &s, partition);
  if (s.declared != nullptr && transformedData) {
    s.declared->transformed = true;
    if (!partition.empty()) s.declared->taint.partitions[partition] = s.declared;
  }
}

// An inlined function's argument or result (compiler/desugar/InlineFunctions.hpp): the type
// is its value's, which must have the declared shape.
void Checker::checkValueDecl(Stmt& s, BlockKind block) {
  const TypeSyntax& ts = *s.declType;
  Type type = checkExpr(*s.exprs[0]);
  if (!type.error) {
    Type declared;
    declared.base = ts.elem == ElemKind::Int ? Base::Int : Base::Real;
    declared.shape = ts.elem == ElemKind::Vector      ? Shape::Vector
                     : ts.elem == ElemKind::RowVector ? Shape::RowVector
                     : ts.elem == ElemKind::Matrix    ? Shape::Matrix
                                                      : Shape::Scalar;
    declared.arrayDims.assign(static_cast<size_t>(ts.valueArrayRank), Size::unknown());
    const bool fits = type.arrayDims.size() == declared.arrayDims.size() && type.shape == declared.shape &&
                      (declared.base == Base::Real || type.base == Base::Int);
    if (!fits) {
      diags_.error(s.exprs[0]->span, s.role + " must be " + kindName(declared) + "; found " + toString(type));
      type = Type::poisoned();
    } else {
      type.base = declared.base;  // an int where a real is declared is a real
    }
    // A `data` argument: a value computed from parameters is caught here when it reads one
    // directly (model variables' taints are known only after the factor assignment).
    const Taint t = taintOf(*s.exprs[0]);
    if (s.dataOnly && !type.error && t.latent != nullptr)
      diags_.error(s.exprs[0]->span, s.role + " is declared 'data' but depends on " + describeVariable(*t.latent));
  }
  s.declared = declare(s.name, symbolKindOf(block), type, s.nameSpan, &s);
}

void Checker::checkAssignable(const Type& target, const Type& value, Span at, const std::string& what) {
  if (target.error || value.error) return;
  if (target.arrayDims.size() != value.arrayDims.size() || target.shape != value.shape) {
    diags_.error(at, what + " must be " + kindName(target) + "; found " + toString(value));
    return;
  }
  if (target.base == Base::Int && value.base == Base::Real) {
    diags_.error(at, what + " must be an int; found the real-valued " + toString(value));
    return;
  }
  stdlib::SizeChecker sizes;
  for (size_t i = 0; i < target.arrayDims.size(); ++i)
    sizes.requireEqual(target.arrayDims[i], value.arrayDims[i], "array sizes of " + what + " differ");
  if (target.shape == Shape::Vector || target.shape == Shape::Matrix)
    sizes.requireEqual(target.rows, value.rows, "row counts of " + what + " differ");
  if (target.shape == Shape::RowVector || target.shape == Shape::Matrix)
    sizes.requireEqual(target.cols, value.cols, "column counts of " + what + " differ");
  recordSizes(sizes, at);
}

void Checker::checkAssign(Stmt& s, BlockKind block) {
  Expr& lhs = *s.exprs[0];
  const Expr* root = assignedRoot(&lhs);
  Type rhs = checkExpr(*s.exprs[1]);
  if (root->kind != ExprKind::Name) {
    diags_.error(lhs.span, "the left side of '" + s.op + "' must be a variable or an indexed variable");
    return;
  }
  Type lt = checkExpr(lhs);
  const Symbol* sym = root->symbol;
  if (sym == nullptr) return;
  bool ownVariable = (block == BlockKind::Model && sym->kind == SymbolKind::ModelVar) ||
                     (block == BlockKind::Generated && sym->kind == SymbolKind::GeneratedVar) ||
                     (block == BlockKind::TransformedData && (sym->transformed || sym->kind == SymbolKind::ModelVar));
  if (!ownVariable) {
    std::string why = sym->transformed                   ? "they are computed in the 'transformed data' block only"
                      : sym->isData()                    ? "data are fixed"
                      : sym->isLatent()                  ? "latents are inferred, not computed"
                      : sym->kind == SymbolKind::LoopVar ? "the loop sets it"
                                                         : "it belongs to another block";
    Diagnostic& d = diags_.error(root->span, "cannot assign to " + describeVariable(*sym) + ": " + why);
    Diagnostics::note(d, sym->declSpan, "'" + sym->name + "' is declared here");
    return;
  }
  if (s.op == "=") {
    checkAssignable(lt, rhs, s.exprs[1]->span, "the value assigned to '" + sym->name + "'");
    return;
  }
  std::string op = s.op.substr(0, 1);
  Type combined = checkOperator(*s.exprs[1], op, {lt, rhs});
  checkAssignable(lt, combined, s.exprs[1]->span, "the value assigned to '" + sym->name + "'");
}

// print(...), reject(...) and fatal_error(...): strings and values of any type, at least one.
void Checker::checkPrint(Stmt& s) {
  Expr& call = *s.exprs[0];
  if (call.conditional) diags_.error(call.nameSpan, "'" + call.text + "' takes its arguments separated by commas");
  if (call.args.empty()) diags_.error(call.nameSpan, "'" + call.text + "' needs at least one argument");
  for (ExprPtr& a : call.args)
    if (a->kind != ExprKind::StringLit) checkExpr(*a);
}

void Checker::checkTilde(Stmt& s) {
  std::vector<Expr*> args;
  for (ExprPtr& e : s.exprs) args.push_back(e.get());
  const stdlib::DistributionEntry* d = stdlib::findDistribution(s.name);
  if (d == nullptr) {
    for (ExprPtr& e : s.exprs) checkExpr(*e);
    std::vector<std::string> names;
    for (const auto& dist : stdlib::distributions()) names.push_back(dist.name);
    std::string suggestion = closestName(s.name, names);
    std::string hint = stdlib::findFunction(s.name) ? "; '" + s.name + "' is a function"
                       : suggestion.empty()          ? ""
                                                     : "; did you mean '" + suggestion + "'?";
    diags_.error(s.nameSpan, "unknown distribution '" + s.name + "'" + hint);
    return;
  }
  const size_t errorsBefore = diags_.errorCount();
  checkDistributionArgs(*d, args, s.nameSpan, s.span, s.name);
  markPriors(*s.exprs[0]);
  if (s.truncated && diags_.errorCount() == errorsBefore) checkTruncation(s, *d);
}

void Checker::checkDistributionArgs(const stdlib::DistributionEntry& d, std::vector<Expr*> args, Span at, Span whole,
                                    const std::string& shownName) {
  std::vector<Type> types;
  bool anyError = false;
  for (Expr* e : args) {
    types.push_back(checkExpr(*e));
    anyError = anyError || types.back().error;
  }
  size_t given = args.size() - 1;
  if (given != d.params.size()) {
    diags_.error(at, "'" + shownName + "' takes " + std::to_string(d.params.size()) +
                         (d.params.size() == 1 ? " argument" : " arguments") + " after the variate, but " +
                         std::to_string(given) + (given == 1 ? " was" : " were") + " given");
    return;
  }
  if (anyError) return;
  if (!stdlib::accepts(d.variate, types[0])) {
    diags_.error(args[0]->span, "the variate of '" + shownName + "' must be " + stdlib::describe(d.variate) +
                                    "; found " + toString(types[0]));
    return;
  }
  for (size_t i = 0; i < d.params.size(); ++i) {
    if (!stdlib::accepts(d.params[i], types[i + 1])) {
      diags_.error(args[i + 1]->span, "argument '" + d.paramNames[i] + "' of '" + shownName + "' must be " +
                                          stdlib::describe(d.params[i]) + "; found " + toString(types[i + 1]));
      return;
    }
  }
  stdlib::SizeChecker sizes;
  d.sizeRule(types, sizes);
  recordSizes(sizes, at, whole);
}

void Checker::recordSizes(stdlib::SizeChecker& sizes, Span at, std::optional<Span> whole) {
  for (const std::string& e : sizes.errors) diags_.error(at, "size mismatch: " + e);
  for (auto& d : sizes.deferred) out_.sizeChecks.push_back({std::move(d), at, whole.value_or(at)});
}

// A statement is a prior for a latent when the latent itself is the variate: `b ~`, `b[i] ~`,
// `to_vector(W) ~`, `beta' ~`. In `(y - m) ~ ...` the variate is y - m, a likelihood term.
void Checker::markPriors(const Expr& variate) {
  if (variate.kind == ExprKind::Name && variate.symbol != nullptr) {
    const_cast<Symbol*>(variate.symbol)->hasPrior = true;
    // An inlined function's argument: its value is the variate (y ~ my_density(...)).
    const Stmt* d = variate.symbol->decl;
    if (d != nullptr && d->kind == StmtKind::Decl && d->declType->sizesFromValue) markPriors(*d->exprs[0]);
  } else if (variate.kind == ExprKind::Index || variate.kind == ExprKind::Transpose ||
             (variate.kind == ExprKind::Call && variate.args.size() == 1 &&
              (variate.text == "to_vector" || variate.text == "multiply_lower_tri_self_transpose"))) {
    markPriors(*variate.args[0]);
  } else if (variate.kind == ExprKind::Binary && variate.text == "*" && variate.args[1]->kind == ExprKind::Transpose &&
             variate.args[0]->kind == ExprKind::Name && variate.args[1]->args[0]->kind == ExprKind::Name &&
             variate.args[0]->symbol == variate.args[1]->args[0]->symbol) {
    markPriors(*variate.args[0]);  // L * L' ~ ...: a density of the matrix L L' (its Jacobian is the model's)
  } else if (variate.kind == ExprKind::Binary || variate.kind == ExprKind::Unary) {
    // (rho + 1) / 2 ~ beta(2, 2): arithmetic on one latent and constants is a density of that
    // latent (its Jacobian is the model's). Not when data or a second latent take part: in
    // y - mu ~ normal(0, s) the statement is y's likelihood, not mu's prior.
    std::set<const Symbol*> names;
    bool other = false;
    // Only a latent, number literals, unary + and -, and + - * / between them: an affine map of
    // the latent (not [1, -1] * v, v' * v or a > 0, which are not one-to-one).
    std::function<void(const Expr&)> collect = [&](const Expr& e) {
      switch (e.kind) {
        case ExprKind::Name:
          if (e.symbol != nullptr && (e.symbol->kind == SymbolKind::Global || e.symbol->kind == SymbolKind::Local))
            names.insert(e.symbol);
          else
            other = true;
          return;
        case ExprKind::IntLit:
        case ExprKind::RealLit: return;
        case ExprKind::Unary:
          if (e.text != "-" && e.text != "+") other = true;
          break;
        case ExprKind::Binary:
          if (e.text != "+" && e.text != "-" && e.text != "*" && e.text != "/") other = true;
          break;
        default: other = true; return;
      }
      forEachSubExpr(e, [&](const ExprPtr& a) { collect(*a); });
    };
    collect(variate);
    if (!other && names.size() == 1) const_cast<Symbol*>(*names.begin())->hasPrior = true;
  }
}

void Checker::warnMissingPriors() {
  for (const auto& s : out_.symbols) {
    // A simplex, a correlation matrix or its Cholesky factor, or a unit vector without a prior is
    // uniform on a bounded set, which is proper.
    // So is a latent with both a lower and an upper bound (uniform on the interval).
    const bool simplex = s->decl != nullptr && s->decl->declType != nullptr &&
                         (hasBoundedSupport(s->decl->declType->constraint) ||
                          (s->decl->declType->lower && s->decl->declType->upper));
    if ((s->kind == SymbolKind::Global || s->kind == SymbolKind::Local) && !s->hasPrior && !simplex) {
      diags_.warning(s->declSpan, std::string(s->kind == SymbolKind::Global ? "global" : "local") + " latent '" +
                                      s->name + "' has no prior statement; it gets an improper flat prior");
    }
  }
}

}  // namespace pvi
