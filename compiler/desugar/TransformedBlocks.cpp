#include "compiler/desugar/TransformedBlocks.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "compiler/ast/AstClone.hpp"

namespace pvi {

namespace {

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

// A constrained type (simplex, corr_matrix, ...) outside the parameters: Stan checks the values,
// which pvic does not yet; the declaration becomes a plain vector or matrix, with a warning.
void dropConstraint(TypeSyntax& t, const std::string& name, const std::string& block, bool report, Diagnostics& diags) {
  if (t.constraint == VectorConstraint::None) return;
  if (report)
    diags.warning(t.span, std::string("'") + name + "' in the '" + block + "' block is a " +
                              constraintKeyword(t.constraint) + " that is not checked yet: pvic treats it as a " +
                              elemKeyword(t.elem));
  t.constraint = VectorConstraint::None;
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
// where `output` is set, temporaries otherwise; they lose their bounds (with a warning): Stan
// rejects a proposal that violates a transformed parameter's bounds, which the fits here cannot
// yet, and ending a finished fit at the first draw outside them would lose it. `report`: the
// model block's copy, which gives the warnings and errors (once for the two copies).
std::vector<StmtPtr> copies(const Block* b, bool output, bool report, Diagnostics& diags) {
  std::vector<StmtPtr> out;
  if (b == nullptr) return out;
  for (const StmtPtr& s : b->stmts) {
    StmtPtr c = cloneStmt(*s);
    if (c->kind == StmtKind::Decl) {
      c->output = output && s->output;  // an inlined function's temporaries are not written
      TypeSyntax& t = *c->declType;
      if ((t.lower || t.upper) && report)
        diags.warning(t.lower ? t.lowerSpan : t.upperSpan,
                      "the bounds of '" + c->name + "' in the '" + blockKeyword(b->kind) +
                          "' block are not checked yet: pvic ignores them");
      t.lower.reset();
      t.upper.reset();
      if ((t.offset || t.multiplier) && report)
        diags.error(t.offset ? t.offsetSpan : t.multiplierSpan,
                    "offset and multiplier belong on parameters; '" + c->name + "' is in the '" +
                        blockKeyword(b->kind) + "' block");
      t.offset.reset();
      t.multiplier.reset();
      dropConstraint(t, c->name, blockKeyword(b->kind), report, diags);
    }
    out.push_back(std::move(c));
  }
  pruneDensityStatements(out, *b, report, /*inModel=*/report, diags);
  // print, reject and fatal_error run with the model block's copy only: once per evaluation, as
  // Stan runs the transformed parameters' (transformed data are not yet evaluated once).
  if (!report) dropPrints(out);
  return out;
}

// The names assigned anywhere in `stmts` (the variable at the root of each left-hand side).
void collectAssigned(const std::vector<StmtPtr>& stmts, std::set<std::string>& out) {
  for (const StmtPtr& s : stmts) {
    if (s->kind == StmtKind::Assign && !s->exprs.empty()) {
      const Expr* lhs = s->exprs[0].get();
      while (lhs->kind == ExprKind::Index && !lhs->args.empty()) lhs = lhs->args[0].get();
      if (lhs->kind == ExprKind::Name) out.insert(lhs->text);
    }
    collectAssigned(s->body, out);
  }
}

// Whether `e` is arithmetic over literals and the given names only.
bool arithmeticOver(const Expr& e, const std::set<std::string>& names) {
  switch (e.kind) {
    case ExprKind::IntLit:
    case ExprKind::RealLit: return true;
    case ExprKind::Name: return names.count(e.text) != 0;
    case ExprKind::Unary:
    case ExprKind::Binary: {
      static const std::set<std::string> ops{"+", "-", "*", "/", "%", "^"};
      if (!ops.count(e.text)) return false;
      for (const ExprPtr& a : e.args)
        if (!arithmeticOver(*a, names)) return false;
      return true;
    }
    default: return false;
  }
}

// Replaces every name of `values` in `e` by a copy of its value.
void substitute(ExprPtr& e, const std::map<std::string, ExprPtr>& values) {
  if (!e) return;
  if (e->kind == ExprKind::Name) {
    if (auto it = values.find(e->text); it != values.end()) e = cloneExpr(*it->second);
    return;
  }
  for (ExprPtr& a : e->args) substitute(a, values);
  for (IndexSyntax& i : e->indices) {
    substitute(i.lo, values);
    substitute(i.hi, values);
  }
}

// Stan lets transformed data size and bound parameters (`int Kc = K - 1;` then `vector[Kc] b;`).
// Transformed data are computed in the model and generated blocks only (above), where a parameter
// block cannot read them; but a scalar whose declaration initialises it by arithmetic over data
// and such scalars, and that is never assigned again, equals that value everywhere. Its uses in
// the sizes and bounds of the parameter blocks (and of the top-level declarations of transformed
// parameters and generated quantities, whose sizes the output needs) become copies of the value (with the earlier
// scalars it reads substituted too). Other transformed data there remain errors (the checker's).
void substituteConstantScalars(Program& program, const Block& data) {
  std::set<std::string> known, assigned;
  for (const Block& b : program.blocks) {
    if (b.kind == BlockKind::Data)
      for (const StmtPtr& s : b.stmts)
        if (s->kind == StmtKind::Decl) known.insert(s->name);
    collectAssigned(b.stmts, assigned);
  }
  std::map<std::string, ExprPtr> values;
  for (const StmtPtr& s : data.stmts) {
    const TypeSyntax* t = s->declType.get();
    if (s->kind != StmtKind::Decl || s->exprs.size() != 1 || t == nullptr || !t->arrayDims.empty() ||
        (t->elem != ElemKind::Int && t->elem != ElemKind::Real) || assigned.count(s->name) ||
        !arithmeticOver(*s->exprs[0], known))
      continue;
    ExprPtr value = cloneExpr(*s->exprs[0]);
    substitute(value, values);
    // An int declared from a real expression is the checker's error in the copies; keep it there.
    values[s->name] = std::move(value);
    known.insert(s->name);
  }
  if (values.empty()) return;
  for (Block& b : program.blocks) {
    // The parameter blocks, and the declarations whose sizes the output layout needs from data:
    // transformed parameters and generated quantities.
    if (b.kind != BlockKind::Hyper && b.kind != BlockKind::Global && b.kind != BlockKind::Local &&
        b.kind != BlockKind::TransformedParameters && b.kind != BlockKind::Generated)
      continue;
    for (StmtPtr& s : b.stmts) {
      if (s->kind != StmtKind::Decl || !s->declType) continue;
      TypeSyntax& t = *s->declType;
      for (ExprPtr& d : t.arrayDims) substitute(d, values);
      for (ExprPtr& d : t.elemDims) substitute(d, values);
      substitute(t.lower, values);
      substitute(t.upper, values);
      substitute(t.offset, values);
      substitute(t.multiplier, values);
    }
  }
}

// `copied` followed by the block's own statements.
void prepend(Block& b, std::vector<StmtPtr> copied) {
  for (StmtPtr& s : b.stmts) copied.push_back(std::move(s));
  b.stmts = std::move(copied);
}

}  // namespace

void inlineTransformedBlocks(Program& program, Diagnostics& diags) {
  // The generated quantities' own constrained declarations (before the copies are added).
  if (Block* generated = firstBlock(program, BlockKind::Generated))
    for (StmtPtr& s : generated->stmts)
      if (s->kind == StmtKind::Decl && s->declType) dropConstraint(*s->declType, s->name, "generated quantities", true, diags);
  Block* data = firstBlock(program, BlockKind::TransformedData);
  Block* parameters = firstBlock(program, BlockKind::TransformedParameters);
  if (data == nullptr && parameters == nullptr) return;
  if (data != nullptr) substituteConstantScalars(program, *data);

  const bool declaresParameters =
      parameters != nullptr && std::any_of(parameters->stmts.begin(), parameters->stmts.end(),
                                           [](const StmtPtr& s) { return s->kind == StmtKind::Decl; });
  if (declaresParameters && firstBlock(program, BlockKind::Generated) == nullptr) {
    Block generated;
    generated.kind = BlockKind::Generated;
    generated.span = parameters->span;
    generated.keywordSpan = parameters->keywordSpan;
    program.blocks.push_back(std::move(generated));
    // push_back may have moved the blocks
    data = firstBlock(program, BlockKind::TransformedData);
    parameters = firstBlock(program, BlockKind::TransformedParameters);
  }

  if (Block* model = firstBlock(program, BlockKind::Model)) {
    std::vector<StmtPtr> copied = copies(data, true, true, diags);
    for (StmtPtr& s : copies(parameters, true, true, diags)) copied.push_back(std::move(s));
    prepend(*model, std::move(copied));
  }
  if (Block* generated = firstBlock(program, BlockKind::Generated)) {
    std::vector<StmtPtr> copied = copies(data, false, false, diags);
    for (StmtPtr& s : copies(parameters, true, false, diags)) copied.push_back(std::move(s));
    prepend(*generated, std::move(copied));
  }
  if (data != nullptr) data->stmts.clear();
  if (parameters != nullptr) parameters->stmts.clear();
}

}  // namespace pvi
