#pragma once
// Stan's checks of a declared variable's bounds and constrained type, written as statements
//   for (each element e of the variable's arrays) if (!(e is valid)) reject("...");
// that run after the variable's block: in the model block's copy of the transformed parameters
// (a point where one is invalid has density zero, as in Stan), at the end of the transformed
// data (the binding stops with the message) and at the end of the generated quantities (the
// output stops with it).
//
// The tests are Stan's: a simplex's elements are >= 0 and sum to 1 within 1e-8; a unit_vector's
// squared norm is 1 within 1e-8; ordered is strictly increasing (positive_ordered also starts at
// >= 0); a cholesky_factor_cov is lower triangular with a positive diagonal, and a
// cholesky_factor_corr's rows also have unit length within 1e-8; a cov_matrix is symmetric within
// 1e-8 and positive definite (its smallest eigenvalue > 0), and a corr_matrix also has a unit
// diagonal within 1e-8. A NaN fails them where they read it (as in
// Stan, a NaN in an ordered[1], or below a Cholesky factor's diagonal, is not read).
#include <string>
#include <vector>

#include "compiler/ast/Ast.hpp"

namespace pvi {

// The checks of decl's constrained type, and of its bounds when `bounds` (a bound may be a
// scalar or an array like the variable: an Index with `broadcast`, which the checker resolves).
// `what` names the variable in the messages: "the transformed parameter".
std::vector<StmtPtr> declaredChecks(const Stmt& decl, bool bounds, const std::string& what);

}  // namespace pvi
