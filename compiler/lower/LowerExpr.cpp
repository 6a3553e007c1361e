// Expressions, calls and the conditional operator.
#include <charconv>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>

#include "compiler/lower/FunctionLowerer.hpp"
#include "compiler/sema/Signatures.hpp"
#include "stdlib/Ops.hpp"

namespace pvi::lower {

using ir::Elem;
using ir::Inst;
using ir::Op;
using ir::ValueId;
using ir::VType;

ValueId FunctionLowerer::kernel(const std::string& name, VType t, std::vector<ValueId> ops) {
  Inst i{Op::Kernel, t, std::move(ops), name};
  return add(i);
}

// integrate_ode_*(y0, t0, ts, theta, x_r, x_i [, rtol, atol, max_steps]) (the system in
// e.callee, compiler/sema/CheckOde.cpp) with Stan's default controls: 1e-6, 1e-6 and 1e6 steps
// for rk45, 1e-10, 1e-10 and 1e8 for bdf and adams. The result, array[T, N] real, is {N, T}. The
// variadic ode_*(y0, t0, ts [, rtol, atol, max_steps], a1, ...) becomes the same kernel call, its
// arguments packed into theta, x_r and x_i as e.odeLayout says (packOdeArguments); its result,
// array[T] vector[N], has the same layout. ode_ckrk is solved by rk45's method.
ValueId FunctionLowerer::odeSolve(const Expr& e) {
  const auto& systems = layout_.odeSystems;
  size_t k = 0;
  while (k < systems.size() && (systems[k].function != e.callee || systems[k].layout != e.odeLayout)) ++k;
  if (k == systems.size()) throw std::logic_error("the checker did not register the ODE system " + e.callee);
  const bool variadic = e.text.starts_with("ode_");
  const bool bdf = e.text.find("bdf") != std::string::npos, adams = e.text.find("adams") != std::string::npos;
  const bool tight = bdf || adams;
  const std::string kernelName = !variadic ? e.text
                                 : bdf     ? "integrate_ode_bdf"
                                 : adams   ? "integrate_ode_adams"
                                           : "integrate_ode_rk45";
  // The controls: after ts in the variadic _tol forms, after x_i in the older interface.
  const bool given = variadic ? e.text.ends_with("_tol") : e.args.size() > 6;
  const size_t controls = variadic ? 3 : 6;
  std::vector<ValueId> ops;
  for (size_t a = 0; a < 3; ++a) ops.push_back(realValue(*e.args[a]));
  if (variadic) {
    for (ValueId v : packOdeArguments(e, given ? 6 : 3)) ops.push_back(v);
  } else {
    for (size_t a = 3; a < 5; ++a) ops.push_back(realValue(*e.args[a]));
    ops.push_back(lower(*e.args[5]));
  }
  ops.push_back(given ? realValue(*e.args[controls]) : constReal(tight ? 1e-10 : 1e-6));
  ops.push_back(given ? realValue(*e.args[controls + 1]) : constReal(tight ? 1e-10 : 1e-6));
  ops.push_back(given ? realValue(*e.args[controls + 2]) : constReal(tight ? 1e8 : 1e6));
  const VType t{Elem::Real, 2, {f_.at(ops[0]).type.dims[0], f_.at(ops[2]).type.dims[0], ir::kNone, ir::kNone}};
  Inst i{Op::Kernel, t, std::move(ops), kernelName};
  i.imm = static_cast<int64_t>(k);
  return add(i);
}

// theta, x_r and x_i of a variadic ODE call: the arguments from e.args[first] on, in order, the
// parameter-dependent reals (lower-case layout) into theta and the data reals (upper case) into
// x_r, each flattened; x_i holds the sizes of the one-dimensional arguments, then the ints. The
// system's program unpacks them the same way (compiler/lower/OdeSystems.cpp).
std::vector<ValueId> FunctionLowerer::packOdeArguments(const Expr& e, size_t first) {
  struct Part {
    ValueId value, size;  // size: kNone for a scalar
  };
  std::vector<Part> theta, xr, xi, sizes;
  for (size_t j = 0; j + 1 < e.odeLayout.size(); ++j) {
    const char c = e.odeLayout[1 + j];
    const Expr& a = *e.args[first + j];
    const bool integer = c == 'i' || c == 'j';
    const ValueId v = integer ? lower(a) : realValue(a);
    const VType& t = f_.at(v).type;
    const ValueId n = t.rank == 0 ? ir::kNone : t.dims[0];
    if (n != ir::kNone) sizes.push_back({n, ir::kNone});
    (integer ? xi : std::islower(static_cast<unsigned char>(c)) ? theta : xr).push_back({v, n});
  }
  sizes.insert(sizes.end(), xi.begin(), xi.end());
  const auto pack = [&](const std::vector<Part>& parts, Elem elem) {
    ValueId total = constInt(0);
    for (const Part& p : parts) total = intArith("+", total, p.size == ir::kNone ? constInt(1) : p.size);
    const ValueId v = newVar(VType{elem, 1, {total, ir::kNone, ir::kNone, ir::kNone}}, ir::kNone);
    ValueId at = constInt(1);
    for (const Part& p : parts) {
      const ValueId next = intArith("+", at, p.size == ir::kNone ? constInt(1) : p.size);
      store(Target{v, {at, p.size == ir::kNone ? ir::kNone : intArith("-", next, constInt(1))}}, p.value);
      at = next;
    }
    return load(v);
  };
  return {pack(theta, Elem::Real), pack(xr, Elem::Real), pack(sizes, Elem::Int)};
}

ValueId FunctionLowerer::density(const std::string& name, std::vector<ValueId> args, Span at) {
  // A GLM D_glm(y | x, alpha, beta, rest...) is D(y | alpha + x * beta, rest...).
  static const std::map<std::string, std::string> glms{{"bernoulli_logit_glm_lpmf", "bernoulli_logit_lpmf"},
                                                       {"poisson_log_glm_lpmf", "poisson_log_lpmf"},
                                                       {"normal_id_glm_lpdf", "normal_lpdf"}};
  if (auto glm = glms.find(name); glm != glms.end()) {
    const ValueId x = toReal(args[1]), alpha = toReal(args[2]), beta = toReal(args[3]);
    const VType eta{Elem::Real, 1, {f_.at(x).type.dims[0], ir::kNone, ir::kNone, ir::kNone}};
    const ValueId linear = kernel("ew_add", eta, {kernel("matvec", eta, {x, beta}), alpha});
    std::vector<ValueId> rest{args[0], linear};
    rest.insert(rest.end(), args.begin() + 4, args.end());
    return density(glm->second, rest, at);
  }
  // D_cdf(y | ...) is the product of the CDFs: exp(D_lcdf(y | ...)).
  if (stdlib::cdfSuffix(name) == "_cdf") {
    const ValueId lcdf = density(name.substr(0, name.size() - 4) + "_lcdf", std::move(args), at);
    return kernel("exp", realScalar(), {lcdf});
  }
  const auto* op = stdlib::findKernelOp(name);
  if (op == nullptr) throw Unsupported{at, "the density " + name};
  for (size_t k = 0; k < args.size(); ++k)
    if (!(k < op->intArgs.size() && op->intArgs[k])) args[k] = toReal(args[k]);
  return kernel(name, realScalar(), args);
}

ValueId FunctionLowerer::toReal(ValueId v) {
  const Inst& i = f_.at(v);
  if (i.type.elem == Elem::Real) return v;
  VType t = i.type;  // an int array becomes a real array of the same dims
  t.elem = Elem::Real;
  Inst c{Op::ToReal, t, {v}};
  return add(c);
}

ValueId FunctionLowerer::intExpr(const Expr& e) {
  ValueId v = lower(e);
  if (f_.at(v).type.elem != Elem::Int || f_.at(v).type.rank != 0) throw Unsupported{e.span, "a non-int size"};
  return v;
}

ValueId FunctionLowerer::lower(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: {
      int64_t v = 0;
      std::from_chars(e.text.data(), e.text.data() + e.text.size(), v);
      return constInt(v);
    }
    case ExprKind::RealLit: {
      return constReal(std::strtod(e.text.c_str(), nullptr));  // underflow gives 0 or a subnormal, never throws
    }
    case ExprKind::Name: return name(e);
    case ExprKind::Unary: {
      if (e.text == "+") return lower(*e.args[0]);
      if (e.text == "!") return condition(e);
      ValueId a = lower(*e.args[0]);
      if (f_.at(a).type.elem == Elem::Int) {
        if (f_.at(a).type.rank != 0) throw Unsupported{e.span, "'-' on an int array"};
        return intArith("-", constInt(0), a);
      }
      return kernel("neg", f_.at(a).type, {a});
    }
    case ExprKind::Transpose: {
      ValueId a = realValue(*e.args[0]);
      const VType& t = f_.at(a).type;
      if (t.rank == 1) return a;  // vector <-> row_vector: the same buffer
      VType out{Elem::Real, 2, {t.dims[1], t.dims[0]}};
      return kernel("transpose", out, {a});
    }
    case ExprKind::Binary: return binary(e);
    case ExprKind::Call: return call(e);
    case ExprKind::Index:
      // dims(x)[k], k a constant (as the checker's sizes take it): x's k-th size itself, which
      // can size a variable (a load from dims' array could not: FunctionLowerer::add).
      if (const Expr& b = *e.args[0]; b.kind == ExprKind::Call && b.text == "dims" && e.indices.size() == 1 &&
                                      e.indices[0].kind == IndexSyntax::Kind::Single &&
                                      e.indices[0].lo->type.isIntScalar()) {
        if (const std::optional<int64_t> k = constantInt(intExpr(*e.indices[0].lo))) {
          const std::vector<ValueId> dims = dimsOf(*b.args[0]);
          if (*k >= 1 && *k <= static_cast<int64_t>(dims.size())) return dims[static_cast<size_t>(*k - 1)];
        }
      }
      return index(e);
    case ExprKind::Cond: return conditional(e);
    case ExprKind::RowVectorLit:
    case ExprKind::ArrayLit: return literal(e);
    case ExprKind::StringLit: break;  // only print statements hold strings (lowered there)
  }
  throw Unsupported{e.span, "this expression"};
}

ValueId FunctionLowerer::name(const Expr& e) {
  const Symbol* s = e.symbol;
  auto buffer = buffers_.find(s);
  if (buffer != buffers_.end()) return load(buffer->second);
  auto it = values_.find(s);
  if (it != values_.end()) return it->second;
  auto pending = pendingDecls_.find(s);
  if (pending != pendingDecls_.end()) return lowerPending(*pending->second);  // lowered at its first use
  throw Unsupported{e.span, "the variable '" + e.text + "' here"};
}

// A declaration waiting for its first use, lowered now; diagnostics name the declaration.
ValueId FunctionLowerer::lowerPending(const Stmt& decl) {
  const Span use = span_;
  span_ = decl.span;
  const ValueId v = declaredValue(decl);
  span_ = use;
  values_[decl.declared] = v;
  return v;
}

// The value a declaration gives its variable: its initial value, or NaN (0 for ints).
ValueId FunctionLowerer::declaredValue(const Stmt& decl) {
  const Symbol* s = decl.declared;
  if (decl.exprs.empty()) return defaultValue(typeOfDecl(*s));
  const Symbol* outer = assigning_;
  assigning_ = s;
  ValueId v = lower(*decl.exprs[0]);
  assigning_ = outer;
  if (s->type.base == Base::Real) v = toReal(v);
  return v;
}

ValueId FunctionLowerer::defaultValue(const VType& t) {
  if (t.elem == Elem::Int) return t.rank == 0 ? constInt(0) : newVar(t, ir::kNone);  // zeros
  ValueId v = constReal(std::numeric_limits<double>::quiet_NaN());
  return t.rank == 0 ? v : kernel("fill", t, {v});
}

// An int condition: comparisons and logic on int or real scalars; any other scalar is
// compared with zero.
ValueId FunctionLowerer::condition(const Expr& e) {
  auto compare = [&](const std::string& op, std::vector<ValueId> ops) {
    return add(Inst{Op::Compare, intScalar(), std::move(ops), op});
  };
  if (e.kind == ExprKind::Binary) {
    static const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
    for (const char* op : ops)
      if (e.text == op) return compare(op, {lower(*e.args[0]), lower(*e.args[1])});
    if (e.text == "&&" || e.text == "||") {
      if (!eagerLogic_ && mayFail(*e.args[1])) return shortCircuit(e);
      return compare(e.text, {condition(*e.args[0]), condition(*e.args[1])});
    }
  }
  if (e.kind == ExprKind::Unary && e.text == "!") return compare("!", {condition(*e.args[0])});
  ValueId v = lower(e);
  if (f_.at(v).type.rank != 0) throw Unsupported{e.span, "a non-scalar condition"};
  return compare("!=", {v, constInt(0)});
}

// Whether evaluating e can fail (an index out of range, a function's domain): e holds an index
// or a call.
bool FunctionLowerer::mayFail(const Expr& e) {
  if (e.kind == ExprKind::Index || e.kind == ExprKind::Call) return true;
  for (const ExprPtr& a : e.args)
    if (mayFail(*a)) return true;
  return false;
}

// `a && b` and `a || b` evaluate b only when a does not decide, as in Stan (`i <= N && y[i] > 0`
// never reads y[N + 1]): b goes under an if, its value through a one-element int Var.
ValueId FunctionLowerer::shortCircuit(const Expr& e) {
  const bool isAnd = e.text == "&&";
  auto right = [&] { return condition(*e.args[1]); };
  auto decided = [&] { return constInt(isAnd ? 0 : 1); };
  ValueId cond = condition(*e.args[0]);
  return load(isAnd ? valueUnderBranch(intScalar(), cond, right, decided)
                    : valueUnderBranch(intScalar(), cond, decided, right));
}

// A one-element Var of type t set to then() where cond holds and to otherwise() elsewhere, each
// evaluated only under its branch.
ValueId FunctionLowerer::valueUnderBranch(const VType& t, ValueId cond, const std::function<ValueId()>& then,
                                          const std::function<ValueId()>& otherwise) {
  ValueId result = newVar(t, ir::kNone);
  ValueId begin = add(Inst{Op::IfBegin, intScalar(), {cond}});
  ++nest_;
  {
    Scope scope(*this);
    store(Target{result, {}}, then());
  }
  --nest_;
  add(Inst{Op::Else, intScalar(), {begin}});
  ++nest_;
  {
    Scope scope(*this);
    store(Target{result, {}}, otherwise());
  }
  --nest_;
  add(Inst{Op::IfEnd, intScalar(), {begin}});
  return result;
}

// Broadcast shape of two operands: the container's type, or a scalar.
static VType broadcastType(const VType& a, const VType& b) {
  VType t = a.rank >= b.rank ? a : b;
  t.elem = Elem::Real;
  return t;
}

ValueId FunctionLowerer::binary(const Expr& e) {
  const std::string& op = e.text;
  if (op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" || op == "&&" || op == "||")
    return condition(e);  // an int, 1 or 0
  ValueId a = lower(*e.args[0]);
  ValueId b = lower(*e.args[1]);
  return arithmetic(op, a, b, e.args[0]->type, e.args[1]->type, e.span);
}

// `a op b` for lowered operands of checked types la and lb (also the compound assignments).
ValueId FunctionLowerer::arithmetic(const std::string& op, ValueId a, ValueId b, const Type& la, const Type& lb,
                                    Span at) {
  const VType ta = f_.at(a).type, tb = f_.at(b).type;
  if (ta.elem == Elem::Int && tb.elem == Elem::Int && ta.rank == 0 && tb.rank == 0 &&
      (op == "+" || op == "-" || op == "*" || op == "/" || op == "%"))
    return intArith(op, a, b);
  a = toReal(a);
  b = toReal(b);
  if (op == "*" && !la.isScalar() && !lb.isScalar()) {
    if (la.shape == Shape::Matrix && lb.shape == Shape::Vector)
      return kernel("matvec", VType{Elem::Real, 1, {ta.dims[0], ir::kNone}}, {a, b});
    if (la.shape == Shape::RowVector && lb.shape == Shape::Matrix)
      return kernel("vecmat", VType{Elem::Real, 1, {tb.dims[1], ir::kNone}}, {a, b});
    if (la.shape == Shape::Matrix && lb.shape == Shape::Matrix)
      return kernel("matmul", VType{Elem::Real, 2, {ta.dims[0], tb.dims[1]}}, {a, b});
    if (la.shape == Shape::RowVector && lb.shape == Shape::Vector) return kernel("dot", realScalar(), {a, b});
    if (la.shape == Shape::Vector && lb.shape == Shape::RowVector)
      return kernel("matmul", VType{Elem::Real, 2, {ta.dims[0], tb.dims[0]}}, {a, b});
  }
  static const std::map<std::string, std::string> ew = {{"+", "ew_add"}, {"-", "ew_sub"}, {"*", "ew_mul"},
                                                        {".*", "ew_mul"}, {"/", "ew_div"}, {"./", "ew_div"},
                                                        {"^", "ew_pow"}, {".^", "ew_pow"}};
  auto it = ew.find(op);
  if (it == ew.end()) throw Unsupported{at, "operator '" + op + "'"};
  return kernel(it->second, broadcastType(f_.at(a).type, f_.at(b).type), {a, b});
}

// A random draw (generated quantities only; the checker refuses _rng functions elsewhere).
ValueId FunctionLowerer::rng(const Expr& e) {
  const stdlib::RngOp& op = *stdlib::findRngOp(e.text);
  if (rngSites_ == nullptr) throw Unsupported{e.nameSpan, "'" + e.text + "' outside the generated quantities"};
  // In the partition's function, a draw that decides a variable the shared function computes too
  // (by its value, or as the condition or bounds of a loop or branch that assigns it) would be
  // drawn a second time, differently.
  const Symbol* shared = nullptr;
  if (sharedNeeds_ != nullptr) {
    if (assigning_ != nullptr && sharedNeeds_->count(assigning_)) shared = assigning_;
    for (const Symbol* s : controlled_)
      if (shared == nullptr && sharedNeeds_->count(s)) shared = s;
  }
  if (shared != nullptr)
    throw Unsupported{e.nameSpan, "'" + e.text + "' in '" + shared->name +
                                      "', which the generated quantities of the globals and those of each "
                                      "partition both need: it would be drawn twice, with different values; "
                                      "declare the partition's own draw separately"};
  std::vector<ValueId> args;
  for (size_t k = 0; k < e.args.size(); ++k) {
    const bool isInt = k < op.intArgs.size() && op.intArgs[k];
    args.push_back(isInt ? lower(*e.args[k]) : realValue(*e.args[k]));
  }
  VType t{op.intResult ? Elem::Int : Elem::Real, 0, {ir::kNone, ir::kNone}};
  if (op.conv == stdlib::RngConv::Multivariate) {
    if (op.vectorResult) {
      const VType first = f_.at(args[0]).type;  // a copy: elementCount adds instructions
      t.rank = 1;
      t.dims[0] = elementCount(first);
    }
  } else {
    for (ValueId a : args)
      if (f_.at(a).type.rank > 0) {  // one draw per element of the containers
        const VType container = f_.at(a).type;
        t.rank = 1;
        t.dims[0] = elementCount(container);
        break;
      }
  }
  Inst i{Op::Rng, t, std::move(args), op.name, static_cast<int64_t>(rngSites_->size())};
  i.comment = e.text;
  rngSites_->push_back({e.text, e.nameSpan});
  return add(i);
}

ValueId FunctionLowerer::call(const Expr& e) {
  const std::string& fn = e.text;
  if (e.args.empty())
    if (const stdlib::MathConstant* c = stdlib::findMathConstant(fn)) {
      return constReal(c->value);
    }
  if (stdlib::findRngOp(fn) != nullptr) return rng(e);
  if (!e.callee.empty()) return odeSolve(e);
  if (stdlib::findDensityFunction(fn) != nullptr) {
    std::vector<ValueId> args;
    for (const ExprPtr& a : e.args) args.push_back(lower(*a));
    return density(fn, args, e.nameSpan);
  }
  if (fn == "rows" || fn == "cols" || fn == "size") {
    ValueId a = lower(*e.args[0]);
    const VType& t = f_.at(a).type;
    const Type& ct = e.args[0]->type;
    if (fn == "size") {  // an array's outermost dimension; a vector's or matrix's element count
      if (ct.isArray()) return t.dims[t.rank - 1];
      return elementCount(t);
    }
    if (fn == "cols" && t.rank == 2) return t.dims[1];
    if (fn == "rows" && t.rank == 1 && ct.shape == Shape::RowVector) return constInt(1);
    if (fn == "cols" && t.rank == 1 && ct.shape == Shape::Vector) return constInt(1);
    return t.dims[0];
  }
  if (fn == "dims") {
    const std::vector<ValueId> dims = dimsOf(*e.args[0]);
    const ValueId v = newVar(VType{Elem::Int, 1, {constInt(static_cast<int64_t>(dims.size())), ir::kNone}}, ir::kNone);
    for (size_t i = 0; i < dims.size(); ++i)
      store(Target{element(v, constInt(static_cast<int64_t>(i + 1))), {}}, dims[i]);
    return load(v);
  }
  if (fn == "rep_array") {
    ValueId x = lower(*e.args[0]);
    const VType xt = f_.at(x).type;
    VType t = xt;  // the element's dims, then the array dims innermost first (ir::VType)
    for (size_t k = e.args.size(); k-- > 1;) t.dims[t.rank++] = intExpr(*e.args[k]);
    if (xt.elem == Elem::Int) return newVar(t, x);  // n copies of an int (Codegen: pvi_fill_int)
    if (xt.rank == 0) return kernel("fill", t, {x});
    // An array of vectors has the layout of a matrix with them as its columns.
    return add(Inst{Op::Reshape, t, {repeated(x, true, t.dims[1])}});
  }
  if (fn == "rep_vector" || fn == "rep_row_vector") {
    ValueId x = realValue(*e.args[0]);
    return kernel("fill", VType{Elem::Real, 1, {intExpr(*e.args[1]), ir::kNone}}, {x});
  }
  if (fn == "rep_matrix" && e.args[0]->type.isScalar()) {
    ValueId x = realValue(*e.args[0]);
    return kernel("fill", VType{Elem::Real, 2, {intExpr(*e.args[1]), intExpr(*e.args[2])}}, {x});
  }
  if (fn == "rep_matrix") {  // n copies of a vector side by side, or m of a row_vector stacked
    const bool column = e.args[0]->type.shape == Shape::Vector;
    return repeated(realValue(*e.args[0]), column, intExpr(*e.args[1]));
  }
  // diag_pre_multiply(v, M) = diag(v) * M and diag_post_multiply(M, v) = M * diag(v): M .* V, with V
  // v repeated across M's columns (rows).
  if (fn == "diag_pre_multiply" || fn == "diag_post_multiply") {
    const bool pre = fn == "diag_pre_multiply";
    const ValueId v = realValue(*e.args[pre ? 0 : 1]), m = realValue(*e.args[pre ? 1 : 0]);
    const VType tm = f_.at(m).type;
    return kernel("ew_mul", tm, {m, repeated(v, pre, tm.dims[pre ? 1 : 0])});
  }
  // gp_exp_quad_cov(x, alpha, rho)[i, j] = alpha^2 exp(-(x_i - x_j)^2 / (2 rho^2)), and with two
  // point sets x1, x2 the cross-covariance. The differences come from x repeated across columns
  // minus x' repeated across rows (never from x_i^2 + x_j^2 - 2 x_i x_j, which cancels).
  if (fn == "gp_exp_quad_cov") {
    const bool cross = e.args.size() == 4;
    const ValueId x1 = realValue(*e.args[0]), x2 = cross ? realValue(*e.args[1]) : x1;
    const ValueId alpha = realValue(*e.args[cross ? 2 : 1]), rho = realValue(*e.args[cross ? 3 : 2]);
    const ValueId n1 = f_.at(x1).type.dims[0], n2 = f_.at(x2).type.dims[0];
    const VType t{Elem::Real, 2, {n1, n2, ir::kNone, ir::kNone}};
    const ValueId diff = kernel("ew_sub", t, {repeated(x1, true, n2), repeated(x2, false, n1)});
    const ValueId factor = kernel("ew_div", realScalar(), {constReal(-0.5), kernel("ew_mul", realScalar(), {rho, rho})});
    const ValueId exponent = kernel("ew_mul", t, {kernel("ew_mul", t, {diff, diff}), factor});
    return kernel("ew_mul", t, {kernel("exp", t, {exponent}), kernel("ew_mul", realScalar(), {alpha, alpha})});
  }
  if (fn == "eigenvalues_sym") {  // k values of a k x k matrix
    const ValueId a = realValue(*e.args[0]);
    return kernel(fn, VType{Elem::Real, 1, {f_.at(a).type.dims[0], ir::kNone, ir::kNone, ir::kNone}}, {a});
  }
  if (fn == "diag_matrix" || fn == "identity_matrix") {
    ValueId v;
    if (fn == "diag_matrix") {
      v = realValue(*e.args[0]);
    } else {
      v = kernel("fill", VType{Elem::Real, 1, {intExpr(*e.args[0]), ir::kNone, ir::kNone, ir::kNone}}, {constReal(1.0)});
    }
    const ValueId n = f_.at(v).type.dims[0];
    return kernel("diag_matrix", VType{Elem::Real, 2, {n, n, ir::kNone, ir::kNone}}, {v});
  }
  if (fn == "quad_form_diag") {  // diag(v) * M * diag(v)
    const ValueId m = realValue(*e.args[0]), v = realValue(*e.args[1]);
    const VType tm = f_.at(m).type;
    const ValueId rowsScaled = kernel("ew_mul", tm, {m, repeated(v, true, tm.dims[1])});
    return kernel("ew_mul", tm, {rowsScaled, repeated(v, false, tm.dims[0])});
  }
  if (fn == "transpose") {
    ValueId a = realValue(*e.args[0]);
    const VType& t = f_.at(a).type;
    if (t.rank == 1) return a;
    return kernel("transpose", VType{Elem::Real, 2, {t.dims[1], t.dims[0]}}, {a});
  }
  if (fn == "col") return element(realValue(*e.args[0]), intExpr(*e.args[1]));  // a column is a view
  if (fn == "row") {
    const ValueId m = realValue(*e.args[0]);
    return kernel("row", VType{Elem::Real, 1, {f_.at(m).type.dims[1], ir::kNone}}, {m, intExpr(*e.args[1])});
  }
  if (fn == "to_matrix") {
    ValueId a = realValue(*e.args[0]);
    const VType& t = f_.at(a).type;
    const Type& ct = e.args[0]->type;
    if (ct.isArray()) {  // array[N, M] is stored {M, N}: the M x N matrix of its buffer, transposed
      Inst m{Op::Reshape, VType{Elem::Real, 2, {t.dims[0], t.dims[1], ir::kNone, ir::kNone}}, {a}};
      return kernel("transpose", VType{Elem::Real, 2, {t.dims[1], t.dims[0], ir::kNone, ir::kNone}}, {add(m)});
    }
    if (t.rank == 2) return a;
    const bool column = ct.shape == Shape::Vector;
    Inst r{Op::Reshape, VType{Elem::Real, 2, {column ? t.dims[0] : constInt(1), column ? constInt(1) : t.dims[0]}}, {a}};
    return add(r);
  }
  if (fn == "to_vector") {  // column-major storage: the same buffer, seen as one vector
    ValueId a = realValue(*e.args[0]);
    const VType& t = f_.at(a).type;
    if (t.rank <= 1) return a;
    Inst r{Op::Reshape, VType{Elem::Real, 1, {elementCount(t), ir::kNone}}, {a}};
    return add(r);
  }
  if (fn == "append_row" || fn == "append_col") return concatenation(e);
  if ((fn == "max" || fn == "min") && e.args.size() == 2) {  // of two values: ints stay ints
    if (e.type.base == Base::Int) return intArith(fn, intExpr(*e.args[0]), intExpr(*e.args[1]));
    return kernel(fn == "max" ? "fmax2" : "fmin2", realScalar(), {realValue(*e.args[0]), realValue(*e.args[1])});
  }
  std::vector<ValueId> args;
  for (const ExprPtr& a : e.args) args.push_back(realValue(*a));
  auto type = [&](size_t i) { return f_.at(args[i]).type; };
  if (args.size() == 1) {
    const stdlib::KernelOp* op = stdlib::findKernelOp(fn);
    if (op != nullptr && op->conv == stdlib::CallConv::Reduce) {  // sum, mean, prod, sd, ...
      ValueId r = kernel(fn, realScalar(), args);
      // The sum of an int array is an int: exact in a double below 2^53.
      if ((fn == "sum" || fn == "max" || fn == "min") && e.args[0]->type.base == Base::Int)
        return add(Inst{Op::ToInt, intScalar(), {r}});
      return r;
    }
    if (op != nullptr && op->conv == stdlib::CallConv::Unary) return kernel(fn, type(0), args);
  }
  if (fn == "dot_product") return kernel("dot", realScalar(), args);
  if (fn == "pow" || fn == "fmax" || fn == "fmin") return kernel(fn + "2", realScalar(), args);
  if (fn == "log_sum_exp" && args.size() == 2) return kernel("log_sum_exp2", realScalar(), args);
  if (fn == "log_mix") return kernel("log_mix", realScalar(), args);
  if (fn == "log_diff_exp") return kernel("log_diff_exp", realScalar(), args);
  throw Unsupported{e.nameSpan, "the function '" + fn + "' with these arguments"};
}

// `v` (a vector or row_vector) repeated `count` times: as the columns of the matrix (`column`), or
// as its rows. The outer product of v with a vector of ones, by the matmul kernel (whose gradient
// sums the copies' adjoints back into v); v's buffer is read as a K x 1 or 1 x K matrix.
ValueId FunctionLowerer::repeated(ValueId v, bool column, ValueId count) {
  const ValueId n = f_.at(v).type.dims[0], one = constInt(1);
  const VType asMatrix{Elem::Real, 2, {column ? n : one, column ? one : n, ir::kNone, ir::kNone}};
  const ValueId vm = add(Inst{Op::Reshape, asMatrix, {v}});
  const ValueId ones =
      kernel("fill", VType{Elem::Real, 2, {column ? one : count, column ? count : one, ir::kNone, ir::kNone}}, {constReal(1.0)});
  if (column) return kernel("matmul", VType{Elem::Real, 2, {n, count, ir::kNone, ir::kNone}}, {vm, ones});
  return kernel("matmul", VType{Elem::Real, 2, {count, n, ir::kNone, ir::kNone}}, {ones, vm});
}

// append_row(a, b) and append_col(a, b): a buffer of the result's type, with a stored into its
// first rows (columns) and b into the rest (each store a subscript store, which the gradient
// reverses), read back like a literal.
ValueId FunctionLowerer::concatenation(const Expr& e) {
  const bool rows = e.text == "append_row";
  const ValueId a = realValue(*e.args[0]), b = realValue(*e.args[1]);
  const VType ta = f_.at(a).type, tb = f_.at(b).type;
  const bool matrix = e.type.shape == Shape::Matrix;
  // How many rows (append_row) or columns (append_col) each argument brings.
  auto extent = [&](const VType& t, const Type& checked) -> ValueId {
    if (t.rank == 0) return constInt(1);
    if (!matrix) return t.dims[0];  // a vector or row_vector into one of its kind
    if (t.rank == 2) return t.dims[rows ? 0 : 1];
    // A row_vector in append_row, or a vector in append_col, is one row (column).
    return (rows ? checked.shape == Shape::RowVector : checked.shape == Shape::Vector) ? constInt(1) : t.dims[0];
  };
  const ValueId na = extent(ta, e.args[0]->type), nb = extent(tb, e.args[1]->type);
  const ValueId total = intArith("+", na, nb);
  VType t{Elem::Real, matrix ? 2 : 1, {ir::kNone, ir::kNone, ir::kNone, ir::kNone}};
  if (!matrix) {
    t.dims[0] = total;
  } else {
    // The other dimension: from whichever argument is a matrix or a vector of the right kind.
    const VType& other = ta.rank == 2 ? ta : tb.rank == 2 ? tb : ta;
    const ValueId across = other.rank == 2 ? other.dims[rows ? 1 : 0] : other.dims[0];
    t.dims[0] = rows ? total : across;
    t.dims[1] = rows ? across : total;
  }
  const ValueId v = newVar(t, ir::kNone);
  // The rows (columns) lo..hi; one row (column), dropping that dimension, for a value of lower
  // rank (a real into a vector, a row_vector into a matrix's row).
  auto part = [&](ValueId lo, ValueId hi, const VType& value) {
    std::vector<ValueId> s(static_cast<size_t>(2 * t.rank), ir::kNone);
    const size_t d = matrix && !rows ? 1 : 0;
    s[2 * d] = lo;
    if (value.rank == t.rank) s[2 * d + 1] = hi;
    return Target{v, s};
  };
  const ValueId one = constInt(1);
  store(part(one, na, ta), a);
  store(part(intArith("+", na, one), total, tb), b);
  return load(v);
}

// Stan's dims(x): x's array sizes outermost first, then rows and columns for a vector, row_vector
// or matrix (both: a vector[n] is {n, 1}, as in Stan Math).
std::vector<ValueId> FunctionLowerer::dimsOf(const Expr& x) {
  const ValueId a = lower(x);
  const VType t = f_.at(a).type;
  const Type& ct = x.type;
  const int elementRank = ct.shape == Shape::Scalar ? 0 : ct.shape == Shape::Matrix ? 2 : 1;  // in t.dims
  std::vector<ValueId> dims;
  for (int k = t.rank; k-- > elementRank;) dims.push_back(t.dims[k]);  // array sizes: stored innermost first
  if (ct.shape == Shape::Vector) dims.insert(dims.end(), {t.dims[0], constInt(1)});
  if (ct.shape == Shape::RowVector) dims.insert(dims.end(), {constInt(1), t.dims[0]});
  if (ct.shape == Shape::Matrix) dims.insert(dims.end(), {t.dims[0], t.dims[1]});
  return dims;
}

// The value of an int computed from int constants alone (1 + 1), or nothing.
std::optional<int64_t> FunctionLowerer::constantInt(ValueId v) const {
  const Inst& i = f_.at(v);
  if (i.op == Op::ConstInt) return i.imm;
  if (i.op != Op::IntArith) return std::nullopt;
  const std::optional<int64_t> a = constantInt(i.operands[0]), b = constantInt(i.operands[1]);
  if (!a || !b) return std::nullopt;
  if (i.name == "+") return *a + *b;
  if (i.name == "-") return *a - *b;
  if (i.name == "*") return *a * *b;
  if (i.name == "/" && *b != 0) return *a / *b;
  if (i.name == "%" && *b != 0) return *a % *b;
  if (i.name == "min") return std::min(*a, *b);
  if (i.name == "max") return std::max(*a, *b);
  return std::nullopt;
}

// [a, b], [row1, row2] and {a, b}: a buffer filled element by element (each a Store, which the
// gradient reverses), read back like a variable assigned in a branch.
ValueId FunctionLowerer::literal(const Expr& e) {
  const bool real = e.type.base == Base::Real;
  std::vector<ValueId> items;
  for (const ExprPtr& a : e.args) items.push_back(real ? realValue(*a) : lower(*a));
  const auto n = static_cast<int64_t>(items.size());
  const VType first = f_.at(items[0]).type;
  VType t = first;
  t.elem = real ? Elem::Real : Elem::Int;
  if (e.kind == ExprKind::RowVectorLit && first.rank == 1) {  // a matrix: its rows, then its columns
    t = VType{Elem::Real, 2, {constInt(n), first.dims[0], ir::kNone, ir::kNone}};
  } else {  // a row_vector of scalars, or an array: the new dimension is the slowest
    if (t.rank == ir::kMaxRank)
      throw Unsupported{e.span, "a literal of more than " + std::to_string(ir::kMaxRank) + " dimensions"};
    t.dims[t.rank++] = constInt(n);
  }
  const ValueId v = newVar(t, ir::kNone);
  for (int64_t i = 0; i < n; ++i) {
    const ValueId at = constInt(i + 1);
    if (t.rank == 2 && e.kind == ExprKind::RowVectorLit)
      store(Target{v, {at, ir::kNone, ir::kNone, ir::kNone}}, items[static_cast<size_t>(i)]);  // row i
    else
      store(Target{element(v, at), {}}, items[static_cast<size_t>(i)]);
  }
  return load(v);
}

// `c ? a : b`. A scalar result evaluates only the branch taken, under an if (the checker makes
// c data-only in the model block, so the gradient reverses it under the same condition); the
// value goes through a one-element Var. Containers evaluate both branches and copy one.
ValueId FunctionLowerer::conditional(const Expr& e) {
  ValueId c = condition(*e.args[0]);
  bool isInt = e.type.base == Base::Int && e.type.isScalar();
  // Int arrays stay ints (as int64 buffers); only real results convert their branches.
  auto branchValue = [&](const Expr& x) { return e.type.base == Base::Int ? lower(x) : realValue(x); };
  ValueId result;
  if (e.type.isScalar()) {
    result = valueUnderBranch(isInt ? intScalar() : realScalar(), c, [&] { return branchValue(*e.args[1]); },
                              [&] { return branchValue(*e.args[2]); });
  } else {
    ValueId a = branchValue(*e.args[1]);
    ValueId b = branchValue(*e.args[2]);
    result = newVar(f_.at(a).type, ir::kNone);
    ValueId begin = add(Inst{Op::IfBegin, intScalar(), {c}});
    ++nest_;
    store(Target{result, {}}, a);
    --nest_;
    add(Inst{Op::Else, intScalar(), {begin}});
    ++nest_;
    store(Target{result, {}}, b);
    --nest_;
    add(Inst{Op::IfEnd, intScalar(), {begin}});
  }
  // Read back like a variable assigned in a branch (see leaveRegion).
  return isInt || nest_ > 0 ? load(result) : result;
}

}  // namespace pvi::lower
