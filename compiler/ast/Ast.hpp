#pragma once
// The abstract syntax tree of a .pvi program. Built by compiler/parse from the ANTLR parse
// tree; the checker (compiler/sema) fills in the fields marked "sema".
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/diagnostics/SourceFile.hpp"
#include "compiler/sema/Type.hpp"

namespace pvi {

struct Symbol;

// Expressions ----------------------------------------------------------------------------------

enum class ExprKind {
  IntLit,     // text
  RealLit,    // text
  Name,       // name
  Call,       // name(args...); `conditional` when written f(a | b, ...)
  Index,      // args[0][indices]
  Unary,      // op args[0]       (op is "-", "+", "!")
  Binary,     // args[0] op args[1]
  Transpose,  // args[0]'
  Cond,       // args[0] ? args[1] : args[2]
  RowVectorLit,  // [args...]: a row_vector of scalars, or a matrix of row_vectors
  ArrayLit,      // {args...}
  StringLit,     // "text" (text without the quotes): an argument of print, reject or fatal_error
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct IndexSyntax {
  enum class Kind { Single, Slice } kind = Kind::Single;
  ExprPtr lo;  // Single: the index; Slice: optional lower end
  ExprPtr hi;  // Slice: optional upper end
  Span span;
};

struct Expr {
  ExprKind kind;
  Span span;
  std::string text;           // literal spelling, variable or function name, or operator
  Span nameSpan;              // Call: the function name
  bool conditional = false;   // Call written with '|'
  // Index made by a pass (compiler/desugar/DeclaredChecks.hpp) to read a declaration's bound at
  // an element: when args[0] is not an array (a scalar bound), the checker makes the expression
  // args[0] itself.
  bool broadcast = false;
  std::vector<ExprPtr> args;
  std::vector<IndexSyntax> indices;
  // Call of an ODE solver: the ODE system's function, taken out of `args` by the checker, and for
  // the variadic ode_* solvers the layout of the arguments after the controls (OdeSystemUse).
  std::string callee;
  Span calleeSpan;
  std::string odeLayout;

  // sema
  Type type;
  const Symbol* symbol = nullptr;  // Name: the variable referred to
};

// Types as written -----------------------------------------------------------------------------

enum class ElemKind { Int, Real, Vector, RowVector, Matrix };
const char* elemKeyword(ElemKind k);  // "int", "real", "vector", "row_vector", "matrix"

// Stan's constrained vector types (elem Vector), and its constrained matrix types (elem Matrix,
// with elemDims {K, K}, or {M, N} for cholesky_factor_cov[M, N]).
enum class VectorConstraint {
  None,
  Simplex,
  Ordered,
  PositiveOrdered,
  UnitVector,
  CholeskyFactorCorr,
  CholeskyFactorCov,
  CorrMatrix,
  CovMatrix
};
inline bool isMatrixConstraint(VectorConstraint c) {
  return c == VectorConstraint::CholeskyFactorCorr || c == VectorConstraint::CholeskyFactorCov ||
         c == VectorConstraint::CorrMatrix || c == VectorConstraint::CovMatrix;
}
const char* constraintKeyword(VectorConstraint c);  // "simplex", ...
// Whether the constrained values lie in a bounded set (where no prior statement means a uniform,
// proper prior).
inline bool hasBoundedSupport(VectorConstraint c) {
  return c == VectorConstraint::Simplex || c == VectorConstraint::UnitVector ||
         c == VectorConstraint::CholeskyFactorCorr || c == VectorConstraint::CorrMatrix;
}

struct TypeSyntax {
  Span span;
  std::vector<ExprPtr> arrayDims;  // array[d1, d2, ...]
  ElemKind elem = ElemKind::Real;
  std::vector<ExprPtr> elemDims;   // vector[n]: {n}; matrix[r, c]: {r, c}
  ExprPtr lower, upper;
  Span lowerSpan, upperSpan;
  // Stan's affine transform of a real latent, x = offset + multiplier * u (either may be absent:
  // offset 0, multiplier 1); never with lower or upper.
  ExprPtr offset, multiplier;
  Span offsetSpan, multiplierSpan;
  VectorConstraint constraint = VectorConstraint::None;
  // An inlined function's argument or result (compiler/desugar/InlineFunctions.hpp): the sizes,
  // and valueArrayRank array dimensions, are those of the initial value.
  bool sizesFromValue = false;
  int valueArrayRank = 0;
};

// Statements -----------------------------------------------------------------------------------

// Return and Call (a call as a statement) are written in user-defined functions; inlining
// replaces them (compiler/desugar/InlineFunctions.hpp), so the checker refuses those left.
enum class StmtKind { Decl, Assign, Tilde, Target, For, If, While, Block, Return, Call };

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  StmtKind kind;
  Span span;
  // Decl: declType, name, nameSpan, optional init in exprs[0].
  std::unique_ptr<TypeSyntax> declType;
  std::string name;           // Decl: variable; For: loop variable; Tilde: distribution
  Span nameSpan;
  std::string op;             // Assign: "=", "+=", "-=", "*=", "/="
  // Assign: {lhs, rhs}; Tilde: {lhs, args...}; Target: {value} (a truncation's normalising term:
  // {value, variate}, Checker::checkTruncation); For: {lo, hi}; If: {cond}; While: {cond};
  // Return: {value?}; Call: {call}
  std::vector<ExprPtr> exprs;
  // For, While: {body}; If: {then, else?}; Block: statements
  std::vector<StmtPtr> body;

  // A declaration at the top of the generated block is a generated quantity (written), and one at
  // the top of transformed data a transformed data variable, unless this is false: a temporary
  // the inliner made (compiler/desugar/InlineFunctions.hpp).
  bool output = true;
  // A declaration made by inlining a function: what it is, for messages ("argument 'x' of 'f'"),
  // and whether its value must not depend on parameters (a `data` argument).
  std::string role;
  bool dataOnly = false;
  // Copied from a user-defined function's body by inlining.
  bool inlined = false;
  // Tilde: Stan's truncation T[truncLower, truncUpper] (either may be null, as in T[L, ]); the
  // checker rewrites a truncated statement into a block (Checker::checkTruncation).
  bool truncated = false;
  ExprPtr truncLower, truncUpper;
  Span truncSpan;
  // If: a truncation's range check (`y` outside [L, U] makes target -inf); kept only where its
  // condition reads data alone (compiler/sema/FactorAssignment.cpp).
  bool truncationCheck = false;
  const Symbol* truncationVariate = nullptr;  // sema: the variate when it is a variable
  bool truncationCovered = false;             // sema: its declared bounds are the truncation's

  // sema
  Symbol* declared = nullptr;  // Decl and For: the symbol introduced
};

// Stan's print(...), reject(...) and fatal_error(...) statements: a Call statement of one of them.
inline bool isPrintStatement(const Stmt& s) {
  if (s.kind != StmtKind::Call || s.exprs.empty() || s.exprs[0]->kind != ExprKind::Call) return false;
  const std::string& f = s.exprs[0]->text;
  return f == "print" || f == "reject" || f == "fatal_error";
}

// True for print, reject and fatal_error, and for branches and blocks made of them only.
inline bool onlyPrints(const Stmt& s) {
  if (isPrintStatement(s)) return true;
  if (s.kind != StmtKind::If && s.kind != StmtKind::Block) return false;
  for (const StmtPtr& b : s.body)
    if (!onlyPrints(*b)) return false;
  return true;
}

// Blocks and program ---------------------------------------------------------------------------

// In the order blocks must come in (the checker compares ranks).
enum class BlockKind {
  Data,
  PartitionData,
  TransformedData,
  Hyper,
  Global,
  Local,
  TransformedParameters,
  Model,
  Generated
};

const char* blockKeyword(BlockKind k);  // "data", "data per", ...

struct Block {
  BlockKind kind;
  Span span;
  Span keywordSpan;
  std::string spelling;   // the keyword as written where it is Stan's ("parameters", "generated quantities")
  std::string partition;  // for `data per P` and `local per P`; empty otherwise
  Span partitionSpan;
  std::vector<StmtPtr> stmts;
};

struct Annotation {
  std::string name;
  Span span;
  Span nameSpan;
  std::vector<std::string> args;
  std::vector<Span> argSpans;
};

// Stan's user-defined functions -----------------------------------------------------------------

// A type without sizes: `array[,] vector` is {2, Vector}.
struct UnsizedType {
  Span span;
  int arrayRank = 0;
  ElemKind elem = ElemKind::Real;
};

struct FunctionParam {
  Span span;
  bool dataOnly = false;  // declared `data`
  UnsizedType type;
  std::string name;
  Span nameSpan;
};

struct FunctionDef {
  Span span;
  bool returnsVoid = false;
  UnsizedType returnType;  // unless returnsVoid
  std::string name;
  Span nameSpan;
  std::vector<FunctionParam> params;
  bool hasBody = false;  // false for a forward declaration `real f(real x);`
  std::vector<StmtPtr> body;
};

struct Program {
  std::vector<FunctionDef> functions;
  std::vector<Annotation> annotations;
  std::vector<Block> blocks;
};

}  // namespace pvi
