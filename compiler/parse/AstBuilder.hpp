#pragma once
// ANTLR parse tree -> AST. Called only on a tree without syntax errors.
#include <optional>

#include "compiler/ast/Ast.hpp"
#include "compiler/diagnostics/Diagnostics.hpp"

class PVIParser;
namespace antlr4 { class ParserRuleContext; }

namespace pvi {

// Returns nothing (and reports it) when expressions nest deeper than kMaxNesting.
std::optional<Program> buildAst(antlr4::ParserRuleContext* programContext, Diagnostics& diags);

}  // namespace pvi
