#include "compiler/sema/FactorDump.hpp"

#include <algorithm>
#include <ostream>

#include "compiler/ast/AstPrint.hpp"
#include "compiler/diagnostics/SourceFile.hpp"

namespace pvi {

namespace {

std::string where(const SourceFile& file, Span s) {
  LineCol lc = file.lineCol(s.begin);
  return std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

std::string statementText(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Tilde: {
      std::string t = printExpr(*s.exprs[0]) + " ~ " + s.name + "(";
      for (size_t i = 1; i < s.exprs.size(); ++i) t += (i > 1 ? ", " : "") + printExpr(*s.exprs[i]);
      return t + ")";
    }
    case StmtKind::Target: return "target += " + printExpr(*s.exprs[0]);
    case StmtKind::Decl: return s.name + " : " + toString(s.declared ? s.declared->type : Type::poisoned());
    default: return "?";
  }
}

std::string factorName(const FactorRef& f) { return f.isPrior() ? "prior" : "partition " + f.partition; }

}  // namespace

void dumpFactors(std::ostream& out, const CheckedProgram& p, const SourceFile& file) {
  out << "partitions:";
  if (p.partitions.empty()) out << " (none)";
  for (const std::string& name : p.partitions) out << ' ' << name;
  out << "\n\nvariables:\n";
  auto isBlockVariable = [](const Symbol& s) {
    return s.kind != SymbolKind::ModelVar && s.kind != SymbolKind::LoopVar && s.kind != SymbolKind::GeneratedVar;
  };
  auto roleOf = [](const Symbol& s) {
    const std::string kind =
        s.transformed ? (s.partition.empty() ? "transformed data" : "transformed data per") : symbolKindName(s.kind);
    return kind + (s.partition.empty() ? "" : " " + s.partition);
  };
  size_t width = 0;
  for (const auto& s : p.symbols)
    if (isBlockVariable(*s)) width = std::max(width, roleOf(*s).size());
  for (const auto& s : p.symbols) {
    if (!isBlockVariable(*s)) continue;
    std::string role = roleOf(*s);
    const TypeSyntax& ts = *s->decl->declType;
    std::string bounds = printBounds(ts);
    if (!bounds.empty()) bounds = " " + bounds;
    out << "  " << role << std::string(width + 2 - role.size(), ' ') << s->name << " : "
        << toString(s->type) << bounds << '\n';
  }
  auto section = [&](const std::string& title, const std::vector<AssignedStatement>& stmts, const FactorRef& f) {
    std::vector<const AssignedStatement*> mine;
    for (const auto& a : stmts)
      if (a.factor.partition == f.partition) mine.push_back(&a);
    out << '\n' << title << " (" << mine.size() << (mine.size() == 1 ? " statement" : " statements") << "):\n";
    for (const auto* a : mine) out << "  " << where(file, a->stmt->span) << "  " << statementText(*a->stmt) << '\n';
  };
  section("factor prior", p.model, FactorRef{});
  for (const std::string& part : p.partitions) section("factor partition " + part, p.model, FactorRef{part});
  if (!p.generated.empty()) {
    out << "\ngenerated quantities:\n";
    for (const auto& g : p.generated)
      out << "  " << where(file, g.stmt->span) << "  " << statementText(*g.stmt) << "  [" << factorName(g.factor) << "]\n";
  }
  if (!p.sizeChecks.empty()) {
    out << "\nsize checks when data are bound:\n";
    for (const auto& c : p.sizeChecks)
      out << "  " << where(file, c.span) << "  " << c.check.a.text << " == " << c.check.b.text << "  (" << c.check.what
          << ")\n";
  }
}

}  // namespace pvi
