// Stan's ODE solvers of the theta / x_r / x_i interface:
//   integrate_ode_rk45(f, y0, t0, ts, theta, x_r, x_i [, rel_tol, abs_tol, max_num_steps])
// (and _bdf, _adams), with f a user-defined
//   array[] real f(real t, array[] real y, array[] real theta, data array[] real x_r, data array[] int x_i)
// The call's result is array[size(ts), size(y0)] real. The function argument is taken out of
// the argument list into Expr::callee, so that everything after the checker sees ordinary
// arguments; the solver itself and f's compilation: stdlib/kernels/ode/ode.h and
// compiler/driver/OdeSystems.hpp.
#include "compiler/sema/Checker.hpp"

namespace pvi {

namespace {

bool isOneDimensional(const Type& t, Base base) {
  return t.arrayDims.size() == 1 && t.shape == Shape::Scalar && (t.base == base || base == Base::Real);
}

// The solver's arguments after the system, in order, as messages name them.
const char* const kArgumentNames[] = {"the initial state y0", "the initial time t0", "the output times ts",
                                      "the parameters theta", "the real data x_r",    "the integer data x_i",
                                      "rel_tol",              "abs_tol",             "max_num_steps"};

const char* const kArgumentTypes[] = {"array[] real", "real", "array[] real", "array[] real", "array[] real",
                                      "array[] int",  "real", "real",         "int or real"};

bool isParam(const FunctionParam& p, int rank, ElemKind elem) {
  return p.type.arrayRank == rank && p.type.elem == elem;
}

}  // namespace

bool isOdeSolver(const std::string& name) {
  return name == "integrate_ode_rk45" || name == "integrate_ode_bdf" || name == "integrate_ode_adams";
}

Type Checker::checkOdeCall(Expr& e) {
  const std::string& solver = e.text;
  const std::string usage = solver + "(f, y0, t0, ts, theta, x_r, x_i) or " + solver +
                            "(f, y0, t0, ts, theta, x_r, x_i, rel_tol, abs_tol, max_num_steps)";
  if (e.args.size() != 7 && e.args.size() != 10) {
    for (size_t i = 1; i < e.args.size(); ++i) checkExpr(*e.args[i]);
    diags_.error(e.nameSpan, "'" + solver + "' takes 7 or 10 arguments, not " + std::to_string(e.args.size()) +
                                 ": " + usage);
    return Type::poisoned();
  }
  bool ok = true;
  const Expr& fn = *e.args[0];
  const FunctionDef* f = fn.kind == ExprKind::Name ? userFunction(fn.text) : nullptr;
  if (f == nullptr) {
    diags_.error(fn.span, "the first argument of '" + solver + "' must name a user-defined function (the ODE system "
                          "array[] real f(real t, array[] real y, array[] real theta, data array[] real x_r, data "
                          "array[] int x_i))");
    ok = false;
  } else if (f->returnsVoid || f->returnType.arrayRank != 1 || f->returnType.elem != ElemKind::Real ||
             f->params.size() != 5 || !isParam(f->params[0], 0, ElemKind::Real) ||
             !isParam(f->params[1], 1, ElemKind::Real) || !isParam(f->params[2], 1, ElemKind::Real) ||
             !isParam(f->params[3], 1, ElemKind::Real) || !isParam(f->params[4], 1, ElemKind::Int) ||
             f->params[1].dataOnly || f->params[2].dataOnly) {
    Diagnostic& d = diags_.error(fn.span, "the ODE system '" + f->name + "' of '" + solver +
                                              "' must have the signature array[] real " + f->name +
                                              "(real t, array[] real y, array[] real theta, data array[] real x_r, "
                                              "data array[] int x_i)");
    Diagnostics::note(d, f->nameSpan, "'" + f->name + "' is declared here");
    ok = false;
  }
  std::vector<Type> t(e.args.size());
  for (size_t i = 1; i < e.args.size(); ++i) {
    t[i] = checkExpr(*e.args[i]);
    ok = ok && !t[i].error;
  }
  if (!ok) return Type::poisoned();
  for (size_t i = 1; i < e.args.size(); ++i) {
    const bool good = i == 6 ? isOneDimensional(t[i], Base::Int)
                      : i == 2 || i >= 7 ? t[i].isScalar()
                                         : isOneDimensional(t[i], Base::Real);
    if (good) continue;
    diags_.error(e.args[i]->span, std::string(kArgumentNames[i - 1]) + " of '" + solver + "' must be " +
                                      kArgumentTypes[i - 1] + ", not " + toString(t[i]));
    ok = false;
  }
  if (!ok) return Type::poisoned();
  odeCalls_.push_back(&e);
  bool known = false;
  for (const auto& [name, at] : out_.odeSystems) known = known || name == fn.text;
  if (!known) out_.odeSystems.emplace_back(fn.text, fn.span);
  e.callee = fn.text;
  e.calleeSpan = fn.span;
  e.args.erase(e.args.begin());
  Type out = Type::realScalar();
  out.arrayDims = {t[3].arrayDims[0], t[1].arrayDims[0]};
  return out;
}

// After factor assignment, when every variable's taint is known: the times, x_r, x_i and the
// control arguments must be data, as Stan requires (y0 and theta may depend on parameters).
void Checker::checkOdeDataArguments() {
  for (const Expr* call : odeCalls_) {
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (i == 0 || i == 3) continue;
      Taint t = taintOf(*call->args[i]);
      if (t.latent == nullptr) continue;
      diags_.error(call->args[i]->span, std::string(kArgumentNames[i]) + " of '" + call->text + "' must be data, as in "
                                            "Stan (only y0 and theta may depend on parameters); here it depends on '" +
                                            t.latent->name + "'");
    }
  }
}

}  // namespace pvi
