#pragma once
// Fuses trees of element-wise arithmetic into one instruction, so that code generation emits one
// loop for `alpha + a + b_urban * urban + ...` instead of a kernel call and a buffer per
// operation (and, in the gradient, one loop instead of one per operation plus a zeroed adjoint
// buffer for each intermediate).
//
// A tree is made of Kernel instructions ew_add, ew_sub, ew_mul, ew_div and neg (of containers
// or of scalars, which then need no call at all); an operation joins the tree of its only user when nothing between
// them writes memory or changes control flow. The tree becomes one Kernel instruction named kFusedElementwise whose
// operands are its distinct leaves (containers of the result's length, read with stride 1, or real scalars, broadcast)
// and whose `texts` are the tree in postfix: "0".."9"... for a leaf, and "+", "-", "*", "/", "neg". Forward values
// equal the unfused ones bit for bit (the same operations in the same order); gradients differ by the order of sums.
#include <string>

#include "compiler/ir/Ir.hpp"

namespace pvi {

inline const std::string kFusedElementwise = "ew_fused";

// Rewrites f in place (instructions renumbered); a tree of one operation is fused too, so that
// every element-wise operation is an inline loop.
void fuseElementwise(ir::Function& f);

}  // namespace pvi
