#include "compiler/desugar/TransformedBlocks.hpp"

#include <algorithm>

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
      if (t.constraint != VectorConstraint::None && report)
        diags.warning(t.span, std::string("'") + c->name + "' in the '" + blockKeyword(b->kind) + "' block is a " +
                                  constraintKeyword(t.constraint) + " that is not checked yet: pvic treats it as a vector");
      t.constraint = VectorConstraint::None;
    }
    out.push_back(std::move(c));
  }
  pruneDensityStatements(out, *b, report, /*inModel=*/report, diags);
  return out;
}

// `copied` followed by the block's own statements.
void prepend(Block& b, std::vector<StmtPtr> copied) {
  for (StmtPtr& s : b.stmts) copied.push_back(std::move(s));
  b.stmts = std::move(copied);
}

}  // namespace

void inlineTransformedBlocks(Program& program, Diagnostics& diags) {
  Block* data = firstBlock(program, BlockKind::TransformedData);
  Block* parameters = firstBlock(program, BlockKind::TransformedParameters);
  if (data == nullptr && parameters == nullptr) return;

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
