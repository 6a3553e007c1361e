// Stan's ODE solvers of the theta / x_r / x_i interface:
//   integrate_ode_rk45(f, y0, t0, ts, theta, x_r, x_i [, rel_tol, abs_tol, max_num_steps])
// (and _bdf, _adams), with f a user-defined
//   array[] real f(real t, array[] real y, array[] real theta, data array[] real x_r, data array[] int x_i)
// The call's result is array[size(ts), size(y0)] real. And the variadic interface of Stan 2.24 on:
//   ode_rk45(f, y0, t0, ts, a1, ..., an)
//   ode_rk45_tol(f, y0, t0, ts, rel_tol, abs_tol, max_num_steps, a1, ..., an)
// (and ode_bdf, ode_adams, ode_ckrk), with f a user-defined vector f(real t, vector y, T1 a1, ...)
// and the result array[size(ts)] vector[rows(y0)]. The function argument is taken out of the
// argument list into Expr::callee, so that everything after the checker sees ordinary
// arguments; the solver itself and f's compilation: stdlib/kernels/ode/ode.h and
// compiler/lower/OdeSystems.hpp. The variadic arguments travel in the older interface's three
// buffers: the reals that depend on parameters in theta, the data reals in x_r, and the ints in
// x_i after the sizes of the one-dimensional arguments (Expr::odeLayout says which is which).
#include <cctype>

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

// The kinds of variadic argument pvic passes, by the system's parameter type: the layout character
// for a parameter-dependent value (data: its upper case; ints are always data).
struct VariadicKind {
  char layout;
  int arrayRank;
  ElemKind elem;
  const char* spelling;
};
const VariadicKind kVariadicKinds[] = {{'r', 0, ElemKind::Real, "real"},
                                       {'v', 0, ElemKind::Vector, "vector"},
                                       {'w', 0, ElemKind::RowVector, "row_vector"},
                                       {'a', 1, ElemKind::Real, "array[] real"},
                                       {'i', 0, ElemKind::Int, "int"},
                                       {'j', 1, ElemKind::Int, "array[] int"}};

const VariadicKind* variadicKind(const UnsizedType& t) {
  for (const VariadicKind& k : kVariadicKinds)
    if (k.arrayRank == t.arrayRank && k.elem == t.elem) return &k;
  return nullptr;
}

// Whether an argument of type t can be passed for a system parameter of kind k (an int where a
// real is expected, as Stan promotes it).
bool passes(const Type& t, const VariadicKind& k) {
  if (t.error) return true;
  const bool oneDim = t.arrayDims.size() == 1 && t.shape == Shape::Scalar;
  switch (k.layout) {
    case 'r': return t.isScalar();
    case 'v': return !t.isArray() && t.shape == Shape::Vector;
    case 'w': return !t.isArray() && t.shape == Shape::RowVector;
    case 'a': return oneDim;
    case 'i': return t.isScalar() && t.base == Base::Int;
    case 'j': return oneDim && t.base == Base::Int;
  }
  return false;
}

// The default controls of Stan's solvers: rk45 and ckrk 1e-6, 1e-6 and 1e6 steps; bdf and adams
// 1e-10, 1e-10 and 1e8.
bool variadicTol(const std::string& solver) { return solver.size() > 4 && solver.ends_with("_tol"); }

}  // namespace

bool isVariadicOdeSolver(const std::string& name) {
  for (const char* s : {"ode_rk45", "ode_bdf", "ode_adams", "ode_ckrk"})
    if (name == s || name == std::string(s) + "_tol") return true;
  return false;
}

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
  for (const OdeSystemUse& u : out_.odeSystems) known = known || (u.function == fn.text && u.layout.empty());
  if (!known) out_.odeSystems.push_back({fn.text, "", fn.span});
  e.callee = fn.text;
  e.calleeSpan = fn.span;
  e.args.erase(e.args.begin());
  Type out = Type::realScalar();
  out.arrayDims = {t[3].arrayDims[0], t[1].arrayDims[0]};
  return out;
}

Type Checker::checkVariadicOdeCall(Expr& e) {
  const std::string& solver = e.text;
  const bool tol = variadicTol(solver);
  const size_t fixed = tol ? 7 : 4;  // f, y0, t0, ts [, rel_tol, abs_tol, max_num_steps]
  const std::string usage =
      solver + (tol ? "(f, y0, t0, ts, rel_tol, abs_tol, max_num_steps, ...)" : "(f, y0, t0, ts, ...)");
  if (e.args.size() < fixed) {
    for (size_t i = 1; i < e.args.size(); ++i) checkExpr(*e.args[i]);
    diags_.error(e.nameSpan, "'" + solver + "' takes at least " + std::to_string(fixed) + " arguments, not " +
                                 std::to_string(e.args.size()) + ": " + usage);
    return Type::poisoned();
  }
  const size_t variadic = e.args.size() - fixed;
  std::vector<Type> t(e.args.size());
  bool ok = true;
  for (size_t i = 1; i < e.args.size(); ++i) {
    t[i] = checkExpr(*e.args[i]);
    ok = ok && !t[i].error;
  }
  const Expr& fn = *e.args[0];
  const FunctionDef* f = fn.kind == ExprKind::Name ? userFunction(fn.text) : nullptr;
  if (f == nullptr) {
    diags_.error(fn.span, "the first argument of '" + solver +
                              "' must name a user-defined function (the ODE system "
                              "vector f(real t, vector y, ...))");
    return Type::poisoned();
  }
  const auto refuse = [&](Span at, const std::string& message) {
    Diagnostic& d = diags_.error(at, message);
    Diagnostics::note(d, f->nameSpan, "'" + f->name + "' is declared here");
    ok = false;
  };
  if (f->returnsVoid || f->returnType.arrayRank != 0 || f->returnType.elem != ElemKind::Vector ||
      f->params.size() != 2 + variadic || !isParam(f->params[0], 0, ElemKind::Real) ||
      !isParam(f->params[1], 0, ElemKind::Vector) || f->params[1].dataOnly) {
    refuse(fn.span, "the ODE system '" + f->name + "' of '" + solver + "' must have the signature vector " + f->name +
                        "(real t, vector y" + (variadic ? ", ...)" : ")") +
                        " with one argument after y for each of the " + std::to_string(variadic) + " arguments after " +
                        (tol ? "max_num_steps" : "ts"));
    return Type::poisoned();
  }
  std::string layout = "~";  // variadic, even without arguments after the controls
  for (size_t j = 0; j < variadic; ++j) {
    const FunctionParam& p = f->params[2 + j];
    const VariadicKind* k = variadicKind(p.type);
    if (k == nullptr) {
      refuse(p.span, "the argument '" + p.name + "' of the ODE system '" + f->name +
                         "' has a type pvic's ODE solvers do not pass yet (they pass real, int, vector, row_vector, "
                         "array[] real and array[] int)");
      continue;
    }
    layout += k->layout;
    const Expr& a = *e.args[fixed + j];
    if (!passes(t[fixed + j], *k)) {
      diags_.error(a.span, "argument " + std::to_string(fixed + j + 1) + " of '" + solver + "' is passed to '" +
                               p.name + "' of the ODE system '" + f->name + "', which is " + k->spelling + ", not " +
                               toString(t[fixed + j]));
      ok = false;
    }
  }
  const auto need = [&](size_t i, bool good, const char* what, const char* type) {
    if (good || t[i].error) return;
    diags_.error(e.args[i]->span,
                 std::string(what) + " of '" + solver + "' must be " + type + ", not " + toString(t[i]));
    ok = false;
  };
  need(1, !t[1].isArray() && t[1].shape == Shape::Vector, "the initial state y0", "vector");
  need(2, t[2].isScalar(), "the initial time t0", "real");
  need(3, isOneDimensional(t[3], Base::Real), "the output times ts", "array[] real");
  if (tol) {
    need(4, t[4].isScalar(), "rel_tol", "real");
    need(5, t[5].isScalar(), "abs_tol", "real");
    need(6, t[6].isScalar() && t[6].base == Base::Int, "max_num_steps", "int");
  }
  if (!ok) return Type::poisoned();
  odeCalls_.push_back(&e);
  e.callee = fn.text;
  e.calleeSpan = fn.span;
  e.odeLayout = layout;  // the data arguments are marked once taints are known
  e.args.erase(e.args.begin());
  Type out = Type::vector(t[1].rows);
  out.arrayDims = {t[3].arrayDims[0]};
  return out;
}

// After factor assignment, when every variable's taint is known: the times, x_r, x_i and the
// control arguments must be data, as Stan requires (y0 and theta may depend on parameters).
void Checker::checkOdeDataArguments() {
  for (Expr* call : odeCalls_) {
    if (isVariadicOdeSolver(call->text)) {
      checkVariadicOdeDataArguments(*call);
      continue;
    }
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

// The times and controls must be data; an argument for a `data` parameter of the system too. The
// real arguments that do not depend on parameters travel as data (upper case in the layout), so
// that the solver integrates no sensitivities for them; then the system is registered for the
// layout.
void Checker::checkVariadicOdeDataArguments(Expr& call) {
  static const char* const kNames[] = {"the initial time t0", "the output times ts", "rel_tol", "abs_tol",
                                       "max_num_steps"};
  const size_t fixed = variadicTol(call.text) ? 6 : 3;  // after y0
  for (size_t i = 1; i < fixed; ++i)
    if (const Taint t = taintOf(*call.args[i]); t.latent != nullptr)
      diags_.error(call.args[i]->span,
                   std::string(kNames[i - 1]) + " of '" + call.text + "' must be data" +
                       (i < 3 ? " (pvic does not differentiate the solution with respect to the times, which Stan's "
                                "variadic solvers do)"
                              : ", as in Stan") +
                       "; here it depends on '" + t.latent->name + "'");
  const FunctionDef* f = userFunction(call.callee);
  for (size_t j = 0; j + 1 < call.odeLayout.size(); ++j) {
    const Taint t = taintOf(*call.args[fixed + j]);
    const FunctionParam& p = f->params[2 + j];
    if (t.latent != nullptr && p.dataOnly)
      diags_.error(call.args[fixed + j]->span, "this argument of '" + call.text + "' is passed to '" + p.name +
                                                   "', a data argument of the ODE system '" + f->name +
                                                   "', but it depends on '" + t.latent->name + "'");
    char& c = call.odeLayout[1 + j];
    if (t.latent == nullptr && c != 'i' && c != 'j') c = static_cast<char>(std::toupper(c));
  }
  bool known = false;
  for (const OdeSystemUse& u : out_.odeSystems)
    known = known || (u.function == call.callee && u.layout == call.odeLayout);
  if (!known) out_.odeSystems.push_back({call.callee, call.odeLayout, call.calleeSpan});
}

}  // namespace pvi
