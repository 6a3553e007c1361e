#pragma once
// Reverse-mode automatic differentiation as a transformation of the IR: from a factor function
// computing log p, build a function that computes log p and writes its gradient with respect to
// the unconstrained inputs z, w and theta. The result is ordinary IR: the forward instructions,
// the adjoint buffers (zeroed workspace, or views of the gradient outputs), then one Backward
// instruction per active forward instruction, in reverse order. No tape exists at run time.
#include "compiler/ir/Ir.hpp"

namespace pvi {

ir::Function differentiate(const ir::Function& forward);

}  // namespace pvi
