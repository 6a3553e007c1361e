#pragma once
// Internal to compiler/sema: the checker's state, shared by its translation units.
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/diagnostics/Diagnostics.hpp"
#include "compiler/sema/CheckedProgram.hpp"
#include "runtime/support/ClosestName.hpp"

namespace pvi {

class Checker {
 public:
  Checker(CheckedProgram& out, Diagnostics& diags) : out_(out), diags_(diags) {}
  void run();

  // Expressions (CheckExpr.cpp) ----------------------------------------------------------------
  Type checkExpr(Expr& e);
  // The value of an int expression as a symbolic size ("N", "(K * 2)", or a constant).
  Size sizeValue(const Expr& e) const;

 private:
  // Program structure (Checker.cpp)
  void checkAnnotations();
  void checkBlockOrder();
  void checkBlock(Block& b);
  void declareBlockVariable(Block& b, Stmt& s);
  Type resolveType(TypeSyntax& ts, const std::string& varName, SymbolKind kind);
  void checkBounds(TypeSyntax& ts, const Type& varType, const std::string& varName);
  void checkDataOnly(Expr& e, const std::string& what, const Block& b);
  void checkLatentBound(Expr& e, const std::string& what, const Block& b);
  void checkPartitions(const Taint& t, Span at, const std::string& what, const Block& b);
  void checkAffine(TypeSyntax& ts, const Type& varType, const std::string& varName, const std::string& block,
                   BlockKind kind);
  void checkStatement(Stmt& s, BlockKind block);
  void checkDecl(Stmt& s, BlockKind block);
  void checkValueDecl(Stmt& s, BlockKind block);
  void refuseConstraint(const TypeSyntax& ts, const std::string& where);
  const FunctionDef* userFunction(const std::string& name) const;
  void checkAssign(Stmt& s, BlockKind block);
  void checkTilde(Stmt& s);
  void checkPrint(Stmt& s);
  void checkTruncation(Stmt& s, const stdlib::DistributionEntry& d);
  void checkDistributionArgs(const stdlib::DistributionEntry& d, std::vector<Expr*> args, Span at, Span whole,
                             const std::string& shownName);
  void checkAssignable(const Type& target, const Type& value, Span at, const std::string& what);
  void warnMissingPriors();

  // Names
  Symbol* declare(std::string name, SymbolKind kind, Type type, Span at, const Stmt* decl, std::string partition = {});
  Symbol* lookup(const std::string& name) const;
  void reportUnknownName(const std::string& name, Span at);
  void pushScope() { scopes_.emplace_back(); }
  void popScope() { scopes_.pop_back(); }

  // Expressions (CheckExpr.cpp)
  Type checkCall(Expr& e);
  Type checkOdeCall(Expr& e);          // CheckOde.cpp
  Type checkVariadicOdeCall(Expr& e);  // CheckOde.cpp
  void checkOdeDataArguments();        // CheckOde.cpp, after factor assignment
  void checkVariadicOdeDataArguments(Expr& call);
  Type checkLiteral(Expr& e);
  Type checkOperator(Expr& e, const std::string& op, std::vector<Type> types);
  Type checkIndex(Expr& e);
  Type applySignature(const stdlib::FunctionEntry& f, Expr& e, const std::vector<Type>& types,
                      const std::vector<Size>& sizes, bool isOperator);
  // `whole`: the expression or statement that `at` belongs to (default: `at`).
  void recordSizes(stdlib::SizeChecker& sizes, Span at, std::optional<Span> whole = std::nullopt);
  void markPriors(const Expr& variate);

  // Factor assignment (FactorAssignment.cpp)
 public:
  Taint taintOf(const Expr& e) const;

 private:
  void assignFactors();

  CheckedProgram& out_;
  Diagnostics& diags_;
  std::vector<std::unordered_map<std::string, Symbol*>> scopes_;
  // Every declaration in the file, for "used before its declaration" messages.
  std::unordered_multimap<std::string, Span> allDeclarations_;
  std::vector<std::string> dataPartitions_;     // partitions with a `data per` block
  std::vector<Span> partitionSpans_;            // where each of out_.partitions is declared
  // Model and generated variables assigned after their declaration: their value in a size is
  // not one fixed expression, so two uses never compare equal.
  std::unordered_set<std::string> reassigned_;
  BlockKind block_ = BlockKind::Data;  // the block being checked (_rng functions: generated only)
  const Block* currentBlock_ = nullptr;  // the block being checked, outside declaration blocks
  int nesting_ = 0;                    // loops, branches and { } around the statement being checked
  std::vector<Expr*> odeCalls_;        // checked ODE solver calls (CheckOde.cpp)

  friend class FactorAssigner;
};

// integrate_ode_rk45, integrate_ode_bdf or integrate_ode_adams (CheckOde.cpp).
bool isOdeSolver(const std::string& name);
// ode_rk45, ode_bdf, ode_adams, ode_ckrk and their _tol forms (CheckOde.cpp).
bool isVariadicOdeSolver(const std::string& name);

// The keyword of a block kind, as written in messages ("data", "generated", ...).
const char* blockKeyword(BlockKind k);


}  // namespace pvi
