#include "compiler/desugar/TransformedBlocks.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "compiler/ast/AstClone.hpp"
#include "compiler/ast/AstPrint.hpp"
#include "compiler/ast/AstWalk.hpp"
#include "compiler/desugar/DeclaredChecks.hpp"

namespace pvi {

namespace {

// An inlined function's locals and the inliner's other temporaries (`conditional~1`): not
// variables of the block they are in.
bool temporary(const Stmt& s) { return s.inlined || !s.output; }

Block* firstBlock(Program& p, BlockKind kind) {
  for (Block& b : p.blocks)
    if (b.kind == kind) return &b;
  return nullptr;
}

// `~` and `target +=` belong in the model block: reported where they are written (once), and
// left out of the copies. Those of an _lp function inlined in transformed parameters stay in the
// model block's copy (`inModel`), as Stan adds them to target there.
void pruneDensityStatements(std::vector<StmtPtr>& stmts, const Block& b, bool report, bool inModel,
                            Diagnostics& diags) {
  std::vector<StmtPtr> kept;
  for (StmtPtr& s : stmts) {
    const bool lpFunction = s->inlined && b.kind == BlockKind::TransformedParameters;
    if ((s->kind == StmtKind::Tilde || s->kind == StmtKind::Target) && lpFunction) {
      if (inModel) kept.push_back(std::move(s));
      continue;
    }
    if (s->kind == StmtKind::Tilde || s->kind == StmtKind::Target) {
      if (report)
        diags.error(s->span, std::string(s->kind == StmtKind::Tilde ? "'~' statements belong" : "'target +=' belongs") +
                                 " in the model block, not the '" + blockKeyword(b.kind) + "' block");
      continue;
    }
    pruneDensityStatements(s->body, b, report, inModel, diags);
    kept.push_back(std::move(s));
  }
  stmts = std::move(kept);
}

// The checks of the constrained types (simplex, corr_matrix, ...) of the top-level declarations
// of `stmts` (compiler/desugar/DeclaredChecks.hpp), which become plain vectors and matrices.
std::vector<StmtPtr> constrainedTypeChecks(std::vector<StmtPtr>& stmts, const std::string& what) {
  std::vector<StmtPtr> checks;
  for (StmtPtr& s : stmts) {
    if (s->kind != StmtKind::Decl || !s->declType || s->declType->constraint == VectorConstraint::None) continue;
    if (!temporary(*s))
      for (StmtPtr& c : declaredChecks(*s, /*bounds=*/false, what)) checks.push_back(std::move(c));
    s->declType->constraint = VectorConstraint::None;
  }
  return checks;
}

void append(std::vector<StmtPtr>& stmts, std::vector<StmtPtr> more) {
  for (StmtPtr& s : more) stmts.push_back(std::move(s));
}

// Removes the print, reject and fatal_error statements (and branches of nothing else) from stmts
// and the statements nested in them.
void dropPrints(std::vector<StmtPtr>& stmts) {
  stmts.erase(std::remove_if(stmts.begin(), stmts.end(), [](const StmtPtr& s) { return onlyPrints(*s); }),
              stmts.end());
  for (StmtPtr& s : stmts) {
    if (s->kind == StmtKind::Block) {
      dropPrints(s->body);
      continue;
    }
    for (StmtPtr& b : s->body)  // a loop's or a branch's body: an empty block in place of prints
      if (onlyPrints(*b)) {
        auto empty = std::make_unique<Stmt>();
        empty->kind = StmtKind::Block;
        empty->span = b->span;
        b = std::move(empty);
      } else if (b->kind == StmtKind::Block) {
        dropPrints(b->body);
      }
  }
}

// Copies of the block's statements. Top-level declarations are outputs of the generated block
// where `output` is set, temporaries otherwise; they lose their bounds and constrained types,
// which the model block's copy checks at its end (a point where they fail has density zero, as
// in Stan); the generated block's copy does not check them (ending a finished fit at the first
// draw that fails them would lose it). `report`: the model block's copy, which gives the errors
// (once for the two copies).
std::vector<StmtPtr> copies(const Block* b, bool output, bool report, Diagnostics& diags) {
  std::vector<StmtPtr> out, atEnd;
  if (b == nullptr) return out;
  for (const StmtPtr& s : b->stmts) {
    StmtPtr c = cloneStmt(*s);
    if (c->kind == StmtKind::Decl) {
      c->output = output && s->output;  // an inlined function's temporaries are not written
      TypeSyntax& t = *c->declType;
      if (report && !temporary(*s))
        for (StmtPtr& check : declaredChecks(*s, /*bounds=*/true, "the transformed parameter"))
          atEnd.push_back(std::move(check));
      t.lower.reset();
      t.upper.reset();
      if ((t.offset || t.multiplier) && report)
        diags.error(t.offset ? t.offsetSpan : t.multiplierSpan,
                    "offset and multiplier belong on parameters; '" + c->name + "' is in the '" +
                        blockKeyword(b->kind) + "' block");
      t.offset.reset();
      t.multiplier.reset();
      t.constraint = VectorConstraint::None;
    }
    out.push_back(std::move(c));
  }
  for (StmtPtr& check : atEnd) out.push_back(std::move(check));
  pruneDensityStatements(out, *b, report, /*inModel=*/report, diags);
  // print, reject and fatal_error run with the model block's copy only: once per evaluation, as
  // Stan runs the transformed parameters'.
  if (!report) dropPrints(out);
  return out;
}

// The variable an assignment assigns (the name at the root of its left-hand side), or null.
const Expr* assignedVariable(const Stmt& s) {
  if (s.kind != StmtKind::Assign || s.exprs.empty()) return nullptr;
  const Expr* lhs = s.exprs[0].get();
  while (lhs->kind == ExprKind::Index && !lhs->args.empty()) lhs = lhs->args[0].get();
  return lhs->kind == ExprKind::Name ? lhs : nullptr;
}

// The names assigned anywhere in `stmts`.
void collectAssigned(const std::vector<StmtPtr>& stmts, std::set<std::string>& out) {
  for (const StmtPtr& s : stmts) {
    if (const Expr* v = assignedVariable(*s)) out.insert(v->text);
    collectAssigned(s->body, out);
  }
}

// The names `s` and the statements nested in it assign.
std::set<std::string> assignedBy(const Stmt& s) {
  std::set<std::string> out;
  collectAssigned(s.body, out);
  if (const Expr* v = assignedVariable(s)) out.insert(v->text);
  return out;
}

void namesIn(const Expr& e, std::set<std::string>& out) {
  if (e.kind == ExprKind::Name) out.insert(e.text);
  forEachSubExpr(e, [&](const ExprPtr& a) { namesIn(*a, out); });
}

void namesRead(const Stmt& s, std::set<std::string>& out) {
  forEachExpr(s, [&](const ExprPtr& e) { namesIn(*e, out); });
  for (const StmtPtr& b : s.body) namesRead(*b, out);
}

// Whether `e` is arithmetic over literals and the given names only (what the size functions
// evaluate, over the data's int scalars).
bool arithmetic(const Expr& e, const std::set<std::string>& names) {
  switch (e.kind) {
    case ExprKind::IntLit:
    case ExprKind::RealLit: return true;
    case ExprKind::Name: return names.count(e.text) != 0;
    case ExprKind::Unary:
    case ExprKind::Binary: {
      static const std::set<std::string> ops{"+", "-", "*", "/", "%", "^"};
      if (!ops.count(e.text)) return false;
      for (const ExprPtr& a : e.args)
        if (!arithmetic(*a, names)) return false;
      return true;
    }
    default: return false;
  }
}

// Whether `e` reads only the given names and calls no user-defined function (inlined before
// this pass: a copy made here would not be).
bool computedFrom(const Expr& e, const std::set<std::string>& names, const Program& program) {
  if (e.kind == ExprKind::Name && !names.count(e.text)) return false;
  if (e.kind == ExprKind::Call)
    for (const FunctionDef& f : program.functions)
      if (f.name == e.text) return false;
  bool ok = true;
  forEachSubExpr(e, [&](const ExprPtr& a) { ok = ok && computedFrom(*a, names, program); });
  return ok;
}

Block& transformedDataBlock(Program& program) {
  if (Block* b = firstBlock(program, BlockKind::TransformedData)) return *b;
  auto at = std::find_if(program.blocks.begin(), program.blocks.end(), [](const Block& b) {
    return static_cast<int>(b.kind) > static_cast<int>(BlockKind::TransformedData);
  });
  Block td;
  td.kind = BlockKind::TransformedData;
  if (at != program.blocks.end()) td.span = td.keywordSpan = Span{at->span.begin, at->span.begin};
  return *program.blocks.insert(at, std::move(td));
}

// Sizes are computed from data before anything runs (the dims, counts and shapes functions), by
// arithmetic over int scalars of the data. A size of a top-level declaration that reads data and
// transformed data in any other way (`vector[sum(m) - 1] beta`, `vector[max(y)] v`) becomes an
// int of the transformed data, named by the expression's text, which then is such a scalar.
void hoistSizes(Program& program) {
  // The data, and in the transformed data block also its temporaries (an inlined function's
  // result: `vector[twice~1] v` for `vector[twice(N)] v`), which its sizes may read.
  std::set<std::string> data, temporaries;
  for (const Block& b : program.blocks)
    if (b.kind == BlockKind::Data || b.kind == BlockKind::PartitionData || b.kind == BlockKind::TransformedData)
      for (const StmtPtr& s : b.stmts)
        if (s->kind == StmtKind::Decl) (temporary(*s) ? temporaries : data).insert(s->name);
  std::set<std::string> withTemporaries = data;
  withTemporaries.insert(temporaries.begin(), temporaries.end());
  std::set<std::string> hoisted;
  // Returns the declaration for `dim`, or null when it stays.
  auto hoist = [&](ExprPtr& dim, bool inTransformedData) -> StmtPtr {
    if (!dim || arithmetic(*dim, data) || !computedFrom(*dim, inTransformedData ? withTemporaries : data, program))
      return nullptr;
    // (A bare name is a temporary's: the int gets a name of its own.)
    const std::string name = dim->kind == ExprKind::Name ? "(" + dim->text + ")" : printExpr(*dim);
    StmtPtr decl;
    if (hoisted.insert(name).second) {
      decl = std::make_unique<Stmt>();
      decl->kind = StmtKind::Decl;
      decl->span = decl->nameSpan = dim->span;
      decl->name = name;
      decl->declType = std::make_unique<TypeSyntax>();
      decl->declType->span = dim->span;
      decl->declType->elem = ElemKind::Int;
      decl->exprs.push_back(cloneExpr(*dim));
    }
    auto ref = std::make_unique<Expr>();
    ref->kind = ExprKind::Name;
    ref->span = dim->span;
    ref->text = name;
    dim = std::move(ref);
    return decl;
  };
  std::vector<StmtPtr> atEnd;
  for (Block& b : program.blocks) {
    const bool transformed = b.kind == BlockKind::TransformedData;
    if (!transformed && b.kind != BlockKind::Hyper && b.kind != BlockKind::Global && b.kind != BlockKind::Local &&
        b.kind != BlockKind::TransformedParameters && b.kind != BlockKind::Generated)
      continue;
    std::vector<StmtPtr> stmts;
    for (StmtPtr& s : b.stmts) {
      if (s->kind == StmtKind::Decl && s->declType && !s->declType->sizesFromValue && !temporary(*s))
        for (auto* dims : {&s->declType->arrayDims, &s->declType->elemDims})
          for (ExprPtr& d : *dims)
            if (StmtPtr decl = hoist(d, transformed)) (transformed ? stmts : atEnd).push_back(std::move(decl));
      stmts.push_back(std::move(s));
    }
    b.stmts = std::move(stmts);
  }
  if (atEnd.empty()) return;
  Block& td = transformedDataBlock(program);
  for (StmtPtr& s : atEnd) td.stmts.push_back(std::move(s));
}

// Transformed data that read per-partition data are computed per partition: the statements of
// the transformed data block that read or assign per-partition data, or a variable such a
// statement assigns, move to a block of their own (kind TransformedData, with the partition),
// in their order; the rest are computed once for the shared data. A variable a moved statement
// reads moves too when it is a temporary (it is not data the partition's block could read) or
// when a later statement assigns it (the moved statement must see its value at its place). So
// no shared statement reads a per-partition one's result, and every per-partition statement reads
// shared variables only at their final values: the split keeps the block's meaning.
void splitPerPartition(Program& program) {
  Block* td = firstBlock(program, BlockKind::TransformedData);
  if (td == nullptr) return;
  std::map<std::string, std::string> partitionOf;  // name -> its partition
  for (const Block& b : program.blocks)
    if (b.kind == BlockKind::PartitionData)
      for (const StmtPtr& s : b.stmts)
        if (s->kind == StmtKind::Decl) partitionOf[s->name] = b.partition;
  if (partitionOf.empty()) return;
  std::set<std::string> declared, temporaries;
  for (const StmtPtr& s : td->stmts)
    if (s->kind == StmtKind::Decl) (temporary(*s) ? temporaries : declared).insert(s->name);
  declared.insert(temporaries.begin(), temporaries.end());
  const size_t n = td->stmts.size();
  std::vector<std::set<std::string>> reads(n), writes(n);
  for (size_t i = 0; i < n; ++i) {
    const Stmt& s = *td->stmts[i];
    namesRead(s, reads[i]);
    writes[i] = assignedBy(s);
    if (s.kind == StmtKind::Decl) writes[i].insert(s.name);
  }
  auto assignedAfter = [&](const std::string& name, size_t i) {
    for (size_t j = i + 1; j < n; ++j)
      if (writes[j].count(name)) return true;
    return false;
  };
  std::vector<std::string> part(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; ++i) {
      if (part[i].empty())
        for (const auto* names : {&reads[i], &writes[i]})
          for (const std::string& name : *names)
            if (auto it = partitionOf.find(name); it != partitionOf.end() && part[i].empty()) {
              part[i] = it->second;
              changed = true;
            }
      if (part[i].empty()) continue;
      for (const std::string& w : writes[i])
        if (declared.count(w) && partitionOf.emplace(w, part[i]).second) changed = true;
      for (const std::string& r : reads[i])
        if (declared.count(r) && !partitionOf.count(r) && (temporaries.count(r) || assignedAfter(r, i))) {
          partitionOf.emplace(r, part[i]);
          changed = true;
        }
    }
  }
  std::vector<StmtPtr> shared;
  std::map<std::string, std::vector<StmtPtr>> perPartition;
  for (size_t i = 0; i < n; ++i) (part[i].empty() ? shared : perPartition[part[i]]).push_back(std::move(td->stmts[i]));
  td->stmts = std::move(shared);
  const Block proto{td->kind, td->span, td->keywordSpan, td->spelling, "", td->partitionSpan, {}};
  auto at = program.blocks.begin() + (td - program.blocks.data()) + 1;
  for (auto& [partition, stmts] : perPartition) {
    Block b{proto.kind, proto.span, proto.keywordSpan, proto.spelling, partition, proto.partitionSpan, {}};
    b.stmts = std::move(stmts);
    at = program.blocks.insert(at, std::move(b)) + 1;
  }
}

// The transformed data declarations: bounds stay (checked once the block has run), constrained
// types are checked at the end of the block, offset and multiplier are errors, and `~` and
// `target +=` are reported and removed.
void prepareTransformedData(Block& td, Diagnostics& diags) {
  for (StmtPtr& s : td.stmts) {
    if (s->kind != StmtKind::Decl || !s->declType) continue;
    TypeSyntax& t = *s->declType;
    if (t.offset || t.multiplier)
      diags.error(t.offset ? t.offsetSpan : t.multiplierSpan,
                  "offset and multiplier belong on parameters; '" + s->name + "' is in the 'transformed data' block");
    t.offset.reset();
    t.multiplier.reset();
  }
  append(td.stmts, constrainedTypeChecks(td.stmts, "the transformed data"));
  pruneDensityStatements(td.stmts, td, true, false, diags);
  // Elsewhere a transformed data variable is read with the sizes its declaration gives, computed
  // from the block's final values: an int that sizes a variable may not change after it.
  std::set<std::string> declared;
  for (const StmtPtr& s : td.stmts)
    if (s->kind == StmtKind::Decl) declared.insert(s->name);
  for (size_t i = 0; i < td.stmts.size(); ++i) {
    const Stmt& s = *td.stmts[i];
    if (s.kind != StmtKind::Decl || !s.declType || temporary(s)) continue;
    for (const auto* dims : {&s.declType->arrayDims, &s.declType->elemDims})
      for (const ExprPtr& d : *dims) {
        std::set<std::string> read;
        namesIn(*d, read);
        for (size_t j = i + 1; j < td.stmts.size(); ++j) {
          const Stmt& later = *td.stmts[j];
          const std::set<std::string> assigned = assignedBy(later);
          for (const std::string& n : read)
            if (declared.count(n) && assigned.count(n))
              diags.error(later.span, "'" + n + "' sizes '" + s.name +
                                          "' and is assigned after its declaration; transformed data are read "
                                          "elsewhere with the sizes their declarations give at the end of the block: "
                                          "assign '" +
                                          n + "' before declaring '" + s.name + "'");
        }
      }
  }
}

// Stan's rule: transformed parameters are assigned in their block only. `declared`: their
// top-level declarations by name; `stmts`: the model or generated block's own statements.
void refuseAssignments(const std::vector<StmtPtr>& stmts, const std::map<std::string, const Stmt*>& declared,
                       const Block& b, Diagnostics& diags) {
  for (const StmtPtr& s : stmts) {
    if (const Expr* lhs = assignedVariable(*s)) {
      const auto d = declared.find(lhs->text);
      if (d != declared.end()) {
        Diagnostic& e = diags.error(
            lhs->span, "cannot assign to the transformed parameter '" + lhs->text + "' in the '" +
                           (b.spelling.empty() ? std::string(blockKeyword(b.kind)) : b.spelling) +
                           "' block: transformed parameters are computed in the 'transformed parameters' block only");
        Diagnostics::note(e, d->second->nameSpan, "'" + lhs->text + "' is declared here");
      }
    }
    refuseAssignments(s->body, declared, b, diags);
  }
}

// `copied` followed by the block's own statements.
void prepend(Block& b, std::vector<StmtPtr> copied) {
  for (StmtPtr& s : b.stmts) copied.push_back(std::move(s));
  b.stmts = std::move(copied);
}

}  // namespace

void inlineTransformedBlocks(Program& program, Diagnostics& diags) {
  // The generated quantities' own constrained declarations, checked at the end of their block
  // (before the copies are added at its top).
  if (Block* generated = firstBlock(program, BlockKind::Generated))
    append(generated->stmts, constrainedTypeChecks(generated->stmts, "the generated quantity"));
  if (Block* data = firstBlock(program, BlockKind::TransformedData)) prepareTransformedData(*data, diags);
  // The data's constrained types, checked first in the transformed data (Stan checks them when
  // it reads the data; per-partition data's move to their partition's block below).
  std::vector<StmtPtr> dataChecks;
  for (Block& b : program.blocks)
    if (b.kind == BlockKind::Data || b.kind == BlockKind::PartitionData)
      append(dataChecks, constrainedTypeChecks(b.stmts, "the data"));
  if (!dataChecks.empty()) prepend(transformedDataBlock(program), std::move(dataChecks));
  hoistSizes(program);
  splitPerPartition(program);

  Block* parameters = firstBlock(program, BlockKind::TransformedParameters);
  if (parameters == nullptr) return;
  const bool declaresParameters = std::any_of(parameters->stmts.begin(), parameters->stmts.end(),
                                              [](const StmtPtr& s) { return s->kind == StmtKind::Decl; });
  if (declaresParameters && firstBlock(program, BlockKind::Generated) == nullptr) {
    Block generated;
    generated.kind = BlockKind::Generated;
    generated.span = parameters->span;
    generated.keywordSpan = parameters->keywordSpan;
    program.blocks.push_back(std::move(generated));
    parameters = firstBlock(program, BlockKind::TransformedParameters);  // push_back may have moved the blocks
  }
  std::map<std::string, const Stmt*> declared;
  for (const StmtPtr& s : parameters->stmts)
    if (s->kind == StmtKind::Decl && !temporary(*s)) declared[s->name] = s.get();
  for (BlockKind kind : {BlockKind::Model, BlockKind::Generated})
    if (const Block* b = firstBlock(program, kind)) refuseAssignments(b->stmts, declared, *b, diags);
  if (Block* model = firstBlock(program, BlockKind::Model)) prepend(*model, copies(parameters, true, true, diags));
  if (Block* generated = firstBlock(program, BlockKind::Generated))
    prepend(*generated, copies(parameters, true, false, diags));
  parameters->stmts.clear();
}

}  // namespace pvi
