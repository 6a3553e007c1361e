#pragma once
// Factor IR -> LLVM IR. Every generated function has exactly the LLVM type of its factor ABI
// function pointer type (runtime/abi/factor_abi.h; compiler/codegen/AbiTypes.hpp). A factor
// function (pvi_factor_fn) is
//   double f(const double* z, const double* w, const double* theta,
//            const void* const* shared, const void* const* partition,
//            double* grad_z, double* grad_w, double* grad_theta,
//            void* workspace, int64_t workspace_bytes, int64_t* status)
// It returns log p (gradient functions also write the gradients). When the workspace is too
// small it writes the bytes it needs to *status and returns NaN; an index out of range writes a
// negative code (see factor_abi.h).
#include <memory>
#include <string>

#include "compiler/ir/Ir.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace pvi {

// The symbol of ODE system k's right-hand side (LoweredModel::odeSystems; stdlib/kernels/ode/ode.h),
// a factor function with internal linkage, which integrate_ode_* calls pass to the solver.
std::string odeSystemSymbol(int64_t k);

// Adds `symbol` to the module, generated from `f`.
void emitFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol);

// Adds `void symbol(const void* const* shared, const void* const* partition, int64_t out[3])`
// (pvi_dims_fn), writing the dimensions of z, w and theta that `f` derives from the data.
void emitDimsFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol);

// Adds an output function (constrain maps, generated quantities) and its size function:
//   double symbol(z, w, theta, shared, partition, double* out, workspace, bytes, int64_t* status)
//   void sizeSymbol(shared, partition, int64_t out[3])     out[0]: the output's length
// (no size function when sizeSymbol is empty).
void emitOutputFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol,
                        const std::string& sizeSymbol);

// The same for a generate function (pvi_generate_fn: one more argument, pvi_rng* rng, which its
// _rng draws advance), with its size function unless sizeSymbol is empty.
void emitGenerateFunction(llvm::Module& module, const ir::Function& f, const std::string& symbol,
                          const std::string& sizeSymbol);

// Adds the data checks of one block from its check function `f` (see runtime/abi/factor_abi.h):
//   void counts(shared, partition, int64_t* counts)       expected element count per variable
//   double check(shared, partition, workspace, bytes, int64_t* status, int64_t where[3])
void emitDataCheckFunctions(llvm::Module& module, const ir::Function& f, ir::Source source,
                            const std::string& checkSymbol, const std::string& countsSymbol);

}  // namespace pvi
