#pragma once
// Internal to compiler/lower: lowers the checked AST into one IR function. Split over
//   Lower.cpp        entry points, declarations, inputs and statements
//   LowerExpr.cpp    expressions, calls and the conditional operator
//   LowerIndex.cpp   indexing (views, rows, gathers, general subscripts) and assignment targets
//   LowerAssign.cpp  which variables each function needs, assignment, and the buffers of
//                    variables assigned inside loops and branches
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/lower/Lower.hpp"

namespace pvi::lower {

struct Unsupported {
  Span span;
  std::string what;
};

// An _rng call of a generate function: which function, and where.
struct RngSite {
  std::string function;
  Span span;
};

class FunctionLowerer {
 public:
  // `isPrior`: the function belongs to the prior (no partition data).
  FunctionLowerer(const CheckedProgram& p, const LoweredModel& layout, ir::Function& f, bool isPrior);

  // The data checks of `source`: bounds, NaN and size checks of the data read from files, or
  // (afterTransform) the size checks that read transformed data, with every variable bound.
  void runDataCheck(ir::Source source, bool afterTransform = false);
  void runConstrain(bool locals);
  void runUnconstrain(bool locals);
  bool localBoundsReadGlobals() const;
  // The generated quantities `decls`; their _rng calls are appended to rngSites. sharedNeeds (the
  // partition's function): the variables the shared generate function computes, which may not
  // draw random numbers here too (they would differ from the values written).
  void runGenerate(const std::vector<const Stmt*>& decls, std::vector<RngSite>& rngSites,
                   const std::set<const Symbol*>* sharedNeeds = nullptr);
  const std::set<const Symbol*>& neededVariables() const { return needed_; }
  void runShapes(bool partition);
  // The transformed data of the shared data (or a partition's): their values, or (counts) each
  // one's element count; their _rng calls are appended to rngSites.
  void runTransform(bool partition, bool counts, std::vector<RngSite>& rngSites);
  void run();

 private:
  using ValueId = ir::ValueId;
  using VType = ir::VType;

  // Lower.cpp -------------------------------------------------------------------------------
  ValueId add(ir::Inst i);
  int32_t statementSite();
  ValueId constInt(int64_t v);
  ValueId constReal(double v);
  std::string boundTransform(const TypeSyntax& ts, std::vector<ValueId>& ops);
  void printStatement(const Expr& call);
  static VType intScalar() { return VType{ir::Elem::Int, 0, {ir::kNone, ir::kNone}}; }
  static VType realScalar() { return VType{ir::Elem::Real, 0, {ir::kNone, ir::kNone}}; }
  VType typeOfDecl(const Symbol& s);
  VType unconstrainedType(const Symbol& s, const VType& t);
  std::vector<ValueId> constraintSizes(const TypeSyntax& ts, const VType& t);
  void bindData(const std::vector<const Symbol*>& syms, ir::Source source);
  void bindParams(const std::vector<const Symbol*>& syms, ir::Input input, bool addJacobian);
  ValueId elementCount(const VType& t);
  ValueId intArith(const std::string& op, ValueId a, ValueId b);
  ValueId outputValue(ValueId v, ValueId offset, const std::string& what);
  ValueId valueOf(const Symbol& s);
  void checkBounds(ValueId v, const TypeSyntax& ts, int64_t index, const std::string& name);
  bool inThisFactor(const Stmt& s) const;
  void statements(const BlockKind kind);
  void statement(const Stmt& s);
  void loop(const Stmt& s);
  static bool readsLatent(const Stmt& s);
  void branch(const Stmt& s);
  void whileLoop(const Stmt& s);
  void addTarget(ValueId v, const Stmt& s);
  static std::string oneLine(const Stmt& s);

  // Values computed inside a loop or branch are not visible after it: a declaration outside
  // first used inside is computed again after it (its memoised value would not dominate).
  struct Scope {
    FunctionLowerer& self;
    std::map<const Symbol*, ValueId> values;
    std::map<const Symbol*, const Stmt*> pending;
    bool restored = false;
    explicit Scope(FunctionLowerer& s) : self(s), values(s.values_), pending(s.pendingDecls_) {}
    void restore() {
      if (restored) return;
      restored = true;
      self.values_ = values;
      self.pendingDecls_ = pending;
    }
    ~Scope() { restore(); }
  };

  // LowerExpr.cpp ---------------------------------------------------------------------------
  ValueId lower(const Expr& e);
  ValueId name(const Expr& e);
  ValueId declaredValue(const Stmt& decl);
  ValueId lowerPending(const Stmt& decl);
  ValueId defaultValue(const VType& t);
  ValueId condition(const Expr& e);
  ValueId binary(const Expr& e);
  ValueId arithmetic(const std::string& op, ValueId a, ValueId b, const Type& la, const Type& lb, Span at);
  ValueId call(const Expr& e);
  std::vector<ValueId> dimsOf(const Expr& x);
  std::optional<int64_t> constantInt(ValueId v) const;
  ValueId rng(const Expr& e);
  ValueId odeSolve(const Expr& e);
  std::vector<ValueId> packOdeArguments(const Expr& e, size_t first);
  ValueId conditional(const Expr& e);
  ValueId shortCircuit(const Expr& e);
  ValueId valueUnderBranch(const VType& t, ValueId cond, const std::function<ValueId()>& then,
                           const std::function<ValueId()>& otherwise);
  static bool mayFail(const Expr& e);
  ValueId literal(const Expr& e);
  ValueId kernel(const std::string& name, VType t, std::vector<ValueId> ops);
  ValueId density(const std::string& name, std::vector<ValueId> args, Span at);
  ValueId realValue(const Expr& e) { return toReal(lower(e)); }
  ValueId toReal(ValueId v);
  ValueId concatenation(const Expr& e);
  ValueId repeated(ValueId v, bool column, ValueId count);
  ValueId intExpr(const Expr& e);
  bool fromIntDataScalars(ValueId v) const;

  // LowerIndex.cpp --------------------------------------------------------------------------
  // An assignment target: a view of a buffer, and the subscript of the part of it written when
  // that part is not a view (empty: the whole view).
  struct Target {
    ValueId view;
    std::vector<ValueId> subscript;
  };
  ValueId index(const Expr& e);
  ValueId element(ValueId base, ValueId i);
  // Leading indices that select a contiguous part: applied as views; returns how many.
  size_t applyViews(ValueId& base, Type& t, const std::vector<const IndexSyntax*>& idx);
  // The general subscript operands (two per IR dimension of `base`) for the indices, and the
  // result's type.
  std::vector<ValueId> subscriptOperands(ValueId base, const Type& t, const std::vector<const IndexSyntax*>& idx,
                                         size_t from, VType& result);
  Target target(ValueId buffer, const Type& t, const std::vector<const IndexSyntax*>& idx);

  // LowerAssign.cpp -------------------------------------------------------------------------
  void analyse(BlockKind kind, const std::set<const Symbol*>& roots);
  void analyseStatements(const std::vector<StmtPtr>& stmts, std::vector<const Expr*>& control,
                         std::set<const Symbol*>& roots, bool collectRoots);
  bool relevant(const Stmt& s) const { return relevant_.count(&s) > 0; }
  bool needed(const Symbol* s) const { return needed_.count(s) > 0; }
  void declaration(const Stmt& s);
  void assignment(const Stmt& s);
  std::vector<const Symbol*> enterRegion(const Stmt& s);
  void leaveRegion(const std::vector<const Symbol*>& owned);
  void lowerPendingReadIn(const Stmt& loop);
  ValueId newVar(const VType& t, ValueId init);
  void store(const Target& t, ValueId value);
  ValueId load(ValueId view);
  bool isStatic(ValueId v) const;
  // Bounds [lo, hi] of an int value that hold wherever it is computed, as values computed before
  // the function runs (isStatic), or nothing: through + - * min max, division by a positive
  // constant, enclosing for-loops' variables and elements of int data.
  struct IntRange {
    ValueId lo, hi;
  };
  std::optional<IntRange> staticRange(ValueId v);
  ValueId staticUpperBound(ValueId v);  // max(0, staticRange(v)->hi), or kNone

  const CheckedProgram& p_;
  const LoweredModel& layout_;
  ir::Function& f_;
  bool isPrior_;
  bool tape_ = false;  // set by run(): factor functions are differentiated
  bool transforming_ = false;   // set by runTransform(): transformed data are computed, not read
  bool silent_ = false;         // print statements are left out (reject and fatal_error stay)
  std::string blockPartition_;  // the transformed data block lowered (its partition; "" for the shared one)
  Span span_;          // the statement being lowered, for diagnostics
  bool eagerLogic_ = false;  // && and || evaluate both sides (in sizes; see shortCircuit)
  Span siteSpan_;            // the statement whose site statementSite() found last, and that site
  int32_t site_ = -1;
  std::vector<int> depth_;  // loop and branch nesting of every instruction
  int nest_ = 0;
  struct Loop {
    ValueId var, lo, hi;
    bool isWhile = false;
    // The outermost enclosing loop reads no latent: nothing in it is differentiated, so the
    // gradient never replays it and its loads keep no per-iteration copies.
    bool dataOnly = false;
  };
  std::vector<Loop> loops_;
  std::map<std::pair<ValueId, int64_t>, ValueId> extremes_;  // (int data, largest) -> its IntExtreme
  std::map<const Symbol*, ValueId> values_;
  std::map<const Symbol*, const Stmt*> pendingDecls_;
  std::map<const Symbol*, ValueId> buffers_;  // variables held in a Var while a region assigns them
  std::unordered_map<const Stmt*, bool> priorStatement_;  // model statement -> in the prior factor
  std::unordered_set<const Symbol*> reassigned_;  // assigned after their declaration
  std::unordered_set<const Symbol*> eager_;       // lowered at their declaration, not at first use
  std::vector<RngSite>* rngSites_ = nullptr;       // generate functions only
  const std::set<const Symbol*>* sharedNeeds_ = nullptr;
  const Symbol* assigning_ = nullptr;             // the variable whose value is being lowered
  std::vector<const Symbol*> controlled_;         // what the loop or branch whose header is being lowered assigns
  std::set<const Symbol*> needed_;                // variables this function computes
  std::unordered_set<const Stmt*> relevant_;      // loops, branches and blocks it enters
  std::map<const Stmt*, std::vector<const Symbol*>> assignedIn_;  // loops and branches: needed variables assigned
  std::map<const Symbol*, std::set<const Symbol*>> deps_;       // variable -> what its values read
  std::map<const Symbol*, std::set<const Symbol*>> initReads_;  // variable -> what its initial value reads
};

}  // namespace pvi::lower
