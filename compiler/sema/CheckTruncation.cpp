// Stan's truncation, `y ~ D(args) T[L, U]`, rewritten (once its parts are typed) into the block
//
//   y ~ D(args);
//   target += -n * log_diff_exp(D_lcdf(U | args), D_lcdf(L | args));   // T[L, ]: D_lccdf(L | args)
//                                                                        // T[, U]: D_lcdf(U | args)
//   if (y < L || y > U) target += negative_infinity();                 // the range check
//
// with n the number of elements of y (the term is written once for a scalar), and, for a
// discrete D, L - 1 in place of L (P(y >= L) = 1 - F(L - 1)), as Stan does. The range check is
// control flow, so it is kept only where it reads data alone (FactorAssignment.cpp removes it
// otherwise: a latent variate stays within its declared bounds).
#include "compiler/ast/AstBuild.hpp"
#include "compiler/ast/AstClone.hpp"
#include "compiler/ast/AstPrint.hpp"
#include "compiler/sema/Checker.hpp"
#include "stdlib/Ops.hpp"

namespace pvi {

void Checker::checkTruncation(Stmt& s, const stdlib::DistributionEntry& d) {
  using namespace build;
  const Span at = s.truncSpan;
  if (!s.truncLower && !s.truncUpper) {
    diags_.error(at, "a truncation needs a lower or an upper bound: T[L, U], T[L, ] or T[, U]");
    return;
  }
  bool ok = true;
  for (ExprPtr* b : {&s.truncLower, &s.truncUpper}) {
    if (!*b) continue;
    const Type t = checkExpr(**b);
    if (t.error) {
      ok = false;
    } else if (!t.isScalar() || (d.discrete && t.base != Base::Int)) {
      diags_.error((*b)->span, std::string("a truncation bound of '") + d.name + "' must be " +
                                   (d.discrete ? "an int" : "an int or a real") + "; found " + toString(t));
      ok = false;
    }
  }
  if (!stdlib::hasCdf(d)) {
    diags_.error(at, "'" + d.name + "' cannot be truncated yet: pvic has no CDF of it");
    return;
  }
  const Expr& y = *s.exprs[0];
  const bool scalar = y.type.isScalar();
  if (!scalar && !(y.type.arrayDims.size() + (y.type.shape == Shape::Scalar ? 0 : 1) == 1 &&
                   y.type.shape != Shape::Matrix)) {
    diags_.error(y.span, "a truncated variate must be a scalar or a one-dimensional container; found " +
                             toString(y.type));
    ok = false;
  }
  for (size_t k = 1; k < s.exprs.size() && !scalar; ++k)
    if (!s.exprs[k]->type.isScalar()) {
      diags_.error(s.exprs[k]->span, "a truncated '~' over a container needs scalar arguments: each element is "
                                     "truncated with the same normalising constant");
      ok = false;
      break;
    }
  if (!ok) return;

  // D_lcdf(bound | args) or D_lccdf(bound | args).
  auto cdf = [&](const char* suffix, ExprPtr bound) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(bound));
    for (size_t k = 1; k < s.exprs.size(); ++k) args.push_back(cloneExpr(*s.exprs[k]));
    return call(d.name + suffix, at, std::move(args), true);
  };
  // For a discrete distribution, P(y >= L) = 1 - F(L - 1).
  auto lowerBound = [&]() {
    ExprPtr l = cloneExpr(*s.truncLower);
    if (d.discrete) l = binary("-", std::move(l), node(ExprKind::IntLit, at, "1"));
    return l;
  };
  ExprPtr norm = s.truncLower && s.truncUpper
                     ? call("log_diff_exp", at, list(cdf("_lcdf", cloneExpr(*s.truncUpper)), cdf("_lcdf", lowerBound())))
                 : s.truncLower ? cdf("_lccdf", lowerBound())
                                : cdf("_lcdf", cloneExpr(*s.truncUpper));
  if (!scalar) norm = binary("*", call("size", at, list(cloneExpr(y))), std::move(norm));
  StmtPtr target = statement(StmtKind::Target, at);
  target->exprs.push_back(node(ExprKind::Unary, at, "-", list(std::move(norm))));
  // The term need not read y (a scalar's is a function of the arguments alone), yet it belongs to
  // y's factor: one term per partition for a local or per-partition y. The variate rides along as
  // a second expression, for factor assignment only.
  target->exprs.push_back(cloneExpr(y));

  // The range check: y (or its smallest and largest elements) against the bounds.
  auto extreme = [&](const char* fn) { return scalar ? cloneExpr(y) : call(fn, at, list(cloneExpr(y))); };
  ExprPtr outside;
  if (s.truncLower) outside = binary("<", extreme("min"), cloneExpr(*s.truncLower));
  if (s.truncUpper) {
    ExprPtr above = binary(">", extreme("max"), cloneExpr(*s.truncUpper));
    outside = outside ? binary("||", std::move(outside), std::move(above)) : std::move(above);
  }
  StmtPtr check = statement(StmtKind::If, at);
  check->truncationCheck = true;
  check->truncationVariate = y.kind == ExprKind::Name ? y.symbol : nullptr;
  // The check may be dropped without a warning where y's declared bounds are the truncation's.
  const TypeSyntax* declared = check->truncationVariate != nullptr && check->truncationVariate->decl != nullptr
                                   ? check->truncationVariate->decl->declType.get()
                                   : nullptr;
  auto sameBound = [](const ExprPtr& declaredBound, const ExprPtr& truncation) {
    return !truncation || (declaredBound && printExpr(*declaredBound) == printExpr(*truncation));
  };
  check->truncationCovered =
      declared != nullptr && sameBound(declared->lower, s.truncLower) && sameBound(declared->upper, s.truncUpper);
  check->exprs.push_back(std::move(outside));
  StmtPtr reject = statement(StmtKind::Target, at);
  reject->exprs.push_back(call("negative_infinity", at, {}));
  check->body.push_back(std::move(reject));

  checkStatement(*target, BlockKind::Model);
  checkExpr(*target->exprs[1]);
  checkStatement(*check, BlockKind::Model);

  // The statement itself, without its truncation, then the two new ones.
  StmtPtr tilde = statement(StmtKind::Tilde, s.span);
  tilde->name = s.name;
  tilde->nameSpan = s.nameSpan;
  tilde->exprs = std::move(s.exprs);
  tilde->inlined = s.inlined;
  s.kind = StmtKind::Block;
  s.name.clear();
  s.exprs.clear();
  s.truncated = false;
  s.truncLower.reset();
  s.truncUpper.reset();
  s.body.clear();
  s.body.push_back(std::move(tilde));
  s.body.push_back(std::move(target));
  s.body.push_back(std::move(check));
}

}  // namespace pvi
