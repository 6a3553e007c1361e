#pragma once
// Checked AST -> factor IR: the prior factor log p(z, theta) and the partition factor
// log p(w_j | z, theta) + log p(y_j | z, w_j, theta), with the log-Jacobian of every bounded
// variable added once, in the factor that owns the variable (globals and hyperparameters: the
// prior; locals: the partition factor).
#include <optional>
#include <string>
#include <vector>

#include "compiler/diagnostics/Diagnostics.hpp"
#include "compiler/ir/Ir.hpp"
#include "compiler/sema/CheckedProgram.hpp"
#include "runtime/model/ModelInfo.hpp"

namespace pvi {

// An ODE system of integrate_ode_* calls: its user-defined function, and the right-hand side
// compiled as described in stdlib/kernels/ode/ode.h (by compiler/driver/OdeSystems.hpp; empty
// until then).
struct OdeSystem {
  std::string function;
  std::string layout;  // the variadic arguments' (OdeSystemUse); empty for integrate_ode_*
  Span call;           // the first call, for messages
  ir::Function rhs;
};

struct LoweredModel {
  ir::Function prior;
  ir::Function partition;                 // empty when the model has no partition
  ir::Function sharedCheck;               // bounds and NaN checks of the shared data
  ir::Function partitionCheck;            // ... and of one partition's data
  // The counts and size checks of the data with their transformed data (runDataCheck).
  ir::Function sharedCheckTransformed, partitionCheckTransformed;
  // Output functions: constrained values of the globals then the hyperparameters (from z,
  // theta), of one partition's locals (from w), and the generated quantities that need only
  // the globals and of those that need a partition, each in declaration order, flattened
  // column-major.
  ir::Function constrainGlobals, constrainLocals, generateShared, generatePartition;
  ir::Function unconstrainGlobals, unconstrainLocals;  // their inverses (constrained in, z / w out)
  // The concrete sizes of the globals, hyperparameters and shared generated quantities, and of
  // the locals and partition generated quantities (see runtime/abi/factor_abi.h).
  ir::Function shapesGlobals, shapesPartition;
  // The transformed data (compiler/desugar/TransformedBlocks.hpp), once from the shared data and
  // once per partition: their values, and each one's element count (runtime/abi/factor_abi.h).
  ir::Function transformSharedCounts, transformShared, transformPartitionCounts, transformPartition;
  std::vector<const Stmt*> generatedShared, generatedPartition;  // the declarations output
  // The _rng calls of both generate functions ("normal_rng at 12:5"), by the index their Rng
  // instructions carry and a failing one reports (PVI_STATUS_RNG_DOMAIN).
  std::vector<std::string> rngCalls;
  // The statements instructions come from ("12:5: y[n] ~ normal(mu, sigma)"), by the site they
  // carry (ir::Inst::site). statementSpans holds their spans while lowering: each function's
  // lowerer, which sees the model as its (const) layout, adds the statements it lowers.
  std::vector<std::string> statements;
  mutable std::vector<Span> statementSpans;
  // The ODE systems, by the index their Kernel instructions carry (imm): those the checker
  // found (CheckedProgram::odeSystems), in its order.
  std::vector<OdeSystem> odeSystems;
  DataSchema schema;  // with the size checks that sharedCheck / partitionCheck make (CheckSize)
  ModelInfo info;  // schema, parameters, generated quantities and source hash, for the runtime (name empty)
  std::string partitionName;
  // Data argument order of the shared data and of a partition's: those read from files, then the
  // transformed data (Symbol::transformed), which the runtime appends once it has computed them.
  std::vector<const Symbol*> sharedData;
  std::vector<const Symbol*> partitionData;
  std::vector<const Symbol*> sharedFiles, partitionFiles;  // the leading parts read from files
  std::vector<const Symbol*> globals;        // z layout, in order
  std::vector<const Symbol*> hypers;         // theta layout, in order
  std::vector<const Symbol*> locals;         // w layout, in order
};

// Returns nothing and reports diagnostics for constructs the code generator does not support.
// The model's source text, for its hash (ModelInfo::sourceHash), is that of diags.file().
// fuse: element-wise arithmetic in the factors becomes one instruction per tree
// (compiler/fuse/FuseElementwise.hpp); false keeps one Kernel instruction per operation (tests
// compare the two).
std::optional<LoweredModel> lowerModel(const CheckedProgram& program, Diagnostics& diags, bool fuse = true);

}  // namespace pvi
