#pragma once
// The result of checking: the AST with types filled in, the symbol table, and the factor that
// every model statement belongs to.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ast/Ast.hpp"
#include "compiler/sema/Signatures.hpp"
#include "compiler/sema/Symbol.hpp"

namespace pvi {

// The factor a statement belongs to: the prior factor (globals, hyperparameters and shared
// data only) or the factor of one partition.
struct FactorRef {
  std::string partition;  // empty: the prior factor
  bool isPrior() const { return partition.empty(); }
};

struct AssignedStatement {
  const Stmt* stmt;      // a '~', 'target +=' or print statement (model) or a declaration (generated)
  FactorRef factor;
};

struct SizeCheckAtBinding {
  stdlib::DeferredSizeCheck check;
  Span span;   // where its diagnostics would point (an operator's expression, a function's name)
  Span whole;  // the whole expression or statement, for messages when data are bound
};

// An ODE system as solver calls use it. `layout` is empty for integrate_ode_* (theta, x_r, x_i);
// for the variadic ode_* solvers it is '~' and then, one character per argument after the
// controls, what the argument is and where it travels (compiler/sema/CheckOde.cpp, kVariadicKinds).
struct OdeSystemUse {
  std::string function;
  std::string layout;
  Span call;
};

struct CheckedProgram {
  Program program;
  std::vector<std::string> partitions;            // from @partition, in order
  std::vector<std::unique_ptr<Symbol>> symbols;   // every symbol, in declaration order
  std::vector<AssignedStatement> model;           // leaf model statements in source order
  std::vector<AssignedStatement> generated;       // generated declarations in source order
  // print, reject and fatal_error statements of the generated block: in the shared generate
  // function, or in each partition's when they read a partition's values.
  std::vector<AssignedStatement> generatedEffects;
  std::vector<SizeCheckAtBinding> sizeChecks;  // size equalities deferred to data binding
  // The functions that ODE solver calls name as their systems, once per function and layout, with
  // the first call's place (compiled whether or not code generation needs the call:
  // compiler/lower/OdeSystems).
  std::vector<OdeSystemUse> odeSystems;

  const Symbol* find(const std::string& name) const;
};

}  // namespace pvi
