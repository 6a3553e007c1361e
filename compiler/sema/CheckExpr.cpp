// Type and shape inference for expressions.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

#include "compiler/ast/AstPrint.hpp"
#include "compiler/sema/Checker.hpp"
#include "stdlib/Ops.hpp"

namespace pvi {

namespace {

std::string typeList(const std::vector<Type>& types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + toString(types[i]);
  return s;
}

std::string paramList(const stdlib::Signature& sig) {
  std::string s = "(";
  for (size_t i = 0; i < sig.params.size(); ++i) s += (i ? ", " : "") + stdlib::describe(sig.params[i]);
  return s + ")";
}

// "operator '+'", or "transpose (')".
std::string operatorName(const std::string& op) {
  if (op == "'") return "transpose (')";
  return "operator '" + (op == "u-" ? std::string("-") : op == "u+" ? std::string("+") : op) + "'";
}

}  // namespace

Type Checker::checkExpr(Expr& e) {
  Type t;
  switch (e.kind) {
    case ExprKind::IntLit: {
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(e.text.data(), e.text.data() + e.text.size(), v);
      if (ec != std::errc() || ptr != e.text.data() + e.text.size()) {
        diags_.error(e.span, "integer literal " + e.text + " is too large; the largest int is 9223372036854775807");
        t = Type::poisoned();
      } else {
        t = Type::intScalar();
      }
      break;
    }
    case ExprKind::RealLit: {
      errno = 0;
      double v = std::strtod(e.text.c_str(), nullptr);
      if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL)) {
        diags_.error(e.span, "real literal " + e.text + " is too large; the largest real is about 1.8e308");
        t = Type::poisoned();
      } else {
        t = Type::realScalar();
      }
      break;
    }
    case ExprKind::Name: {
      Symbol* sym = lookup(e.text);
      if (sym == nullptr) {
        reportUnknownName(e.text, e.span);
        t = Type::poisoned();
      } else {
        e.symbol = sym;
        t = sym->type;
      }
      break;
    }
    case ExprKind::Call: t = checkCall(e); break;
    case ExprKind::Index: t = checkIndex(e); break;
    case ExprKind::RowVectorLit:
    case ExprKind::ArrayLit: t = checkLiteral(e); break;
    case ExprKind::StringLit:  // the arguments of print, reject and fatal_error are checked by checkPrint
      diags_.error(e.span, "a string can only be an argument of print, reject or fatal_error");
      t = Type::poisoned();
      break;
    case ExprKind::Unary: {
      Type a = checkExpr(*e.args[0]);
      t = checkOperator(e, e.text == "!" ? "!" : "u" + e.text, {a});
      break;
    }
    case ExprKind::Transpose: t = checkOperator(e, "'", {checkExpr(*e.args[0])}); break;
    case ExprKind::Binary: {
      Type a = checkExpr(*e.args[0]);
      Type b = checkExpr(*e.args[1]);
      t = checkOperator(e, e.text, {a, b});
      break;
    }
    case ExprKind::Cond: {
      Type c = checkExpr(*e.args[0]);
      Type a = checkExpr(*e.args[1]);
      Type b = checkExpr(*e.args[2]);
      if (c.error || a.error || b.error) {
        t = Type::poisoned();
        break;
      }
      if (!c.isScalar()) {
        diags_.error(e.args[0]->span, "the condition of '?:' must be an int or a real; found " + toString(c));
        t = Type::poisoned();
        break;
      }
      if (a.isScalar() && b.isScalar()) {
        t = (a.base == Base::Int && b.base == Base::Int) ? Type::intScalar() : Type::realScalar();
        break;
      }
      if (kindName(a) != kindName(b)) {
        diags_.error(e.span, "the branches of '?:' have different types: " + toString(a) + " and " + toString(b));
        t = Type::poisoned();
        break;
      }
      checkAssignable(a, b, e.span, "the second branch of '?:'");
      t = a;
      break;
    }
  }
  e.type = t;
  return t;
}

Type Checker::checkOperator(Expr& e, const std::string& op, std::vector<Type> types) {
  for (const Type& t : types)
    if (t.error) return Type::poisoned();
  const stdlib::FunctionEntry* entry = stdlib::findOperator(op);
  std::vector<Size> sizes(types.size(), Size::unknown());
  return applySignature(*entry, e, types, sizes, true);
}

Type Checker::applySignature(const stdlib::FunctionEntry& f, Expr& e, const std::vector<Type>& types,
                             const std::vector<Size>& asSize, bool isOperator) {
  std::vector<const stdlib::Signature*> sameArity;
  for (const auto& sig : f.signatures)
    if (sig.params.size() == types.size()) sameArity.push_back(&sig);
  Span at = isOperator ? e.span : e.nameSpan;
  if (sameArity.empty()) {
    std::string counts;
    for (const auto& sig : f.signatures) {
      std::string n = std::to_string(sig.params.size());
      if (counts.find(n) == std::string::npos) counts += (counts.empty() ? "" : " or ") + n;
    }
    diags_.error(at, "'" + f.name + "' takes " + counts + (counts == "1" ? " argument" : " arguments") + ", but " +
                         std::to_string(types.size()) + (types.size() == 1 ? " was" : " were") + " given");
    return Type::poisoned();
  }
  for (const stdlib::Signature* sig : sameArity) {
    bool ok = true;
    for (size_t i = 0; i < types.size() && ok; ++i) ok = stdlib::accepts(sig->params[i], types[i]);
    if (!ok) continue;
    stdlib::SizeChecker sizes;
    Type result = sig->result(stdlib::CallArgs{types, asSize, sizes});
    bool mismatch = !sizes.errors.empty();
    recordSizes(sizes, at, e.span);
    return mismatch ? Type::poisoned() : result;
  }
  if (isOperator) {
    std::string shown = operatorName(f.name);
    if (types.size() == 1) {
      diags_.error(e.span, shown + " cannot be applied to " + toString(types[0]));
    } else {
      std::string hint;
      if (f.name == "*" && types[0].shape == Shape::Vector && types[1].shape == Shape::Vector && !types[0].isArray() &&
          !types[1].isArray())
        hint = "; use dot_product(a, b) or the element-wise '.*'";
      else if (types[0].isArray() || types[1].isArray())
        hint = "; arithmetic on arrays is not defined, use vectors";
      diags_.error(e.span, shown + " cannot be applied to " + toString(types[0]) + " and " +
                               toString(types[1]) + hint);
    }
    return Type::poisoned();
  }
  if (sameArity.size() == 1) {
    const stdlib::Signature& sig = *sameArity[0];
    for (size_t i = 0; i < types.size(); ++i) {
      if (!stdlib::accepts(sig.params[i], types[i])) {
        diags_.error(e.args[i]->span, "argument " + std::to_string(i + 1) + " of '" + f.name + "' must be " +
                                          stdlib::describe(sig.params[i]) + "; found " + toString(types[i]));
        return Type::poisoned();
      }
    }
  }
  std::string candidates;
  for (const stdlib::Signature* sig : sameArity) candidates += (candidates.empty() ? "" : ", ") + paramList(*sig);
  diags_.error(e.nameSpan, "no signature of '" + f.name + "' accepts (" + typeList(types) + "); it takes " + candidates);
  return Type::poisoned();
}

// [a, b, c]: a row_vector of scalars, or a matrix whose rows are row_vectors of one size.
// {a, b, c}: an array of elements of one type (ints promoted to reals when some are real).
Type Checker::checkLiteral(Expr& e) {
  std::vector<Type> ts;
  bool failed = false;
  for (ExprPtr& a : e.args) {
    ts.push_back(checkExpr(*a));
    failed = failed || ts.back().error;
  }
  if (failed) return Type::poisoned();
  const Size count = Size::constant(static_cast<int64_t>(ts.size()));
  stdlib::SizeChecker sizes;
  Type out;
  if (e.kind == ExprKind::RowVectorLit) {
    const bool scalars = std::all_of(ts.begin(), ts.end(), [](const Type& t) { return t.isScalar(); });
    const bool rows = std::all_of(ts.begin(), ts.end(),
                                  [](const Type& t) { return !t.isArray() && t.shape == Shape::RowVector; });
    if (!scalars && !rows) {
      for (size_t i = 0; i < ts.size(); ++i)
        if (!(ts[0].isScalar() ? ts[i].isScalar() : !ts[i].isArray() && ts[i].shape == Shape::RowVector)) {
          diags_.error(e.args[i]->span, "the elements of '[...]' must be all scalars (a row_vector) or all "
                                        "row_vectors (a matrix); element " + std::to_string(i + 1) + " is " +
                                        toString(ts[i]));
          return Type::poisoned();
        }
      diags_.error(e.span, "the elements of '[...]' must be all scalars (a row_vector) or all row_vectors (a matrix)");
      return Type::poisoned();
    }
    if (scalars) {
      out = Type::rowVector(count);
    } else {
      for (size_t i = 1; i < ts.size(); ++i)
        sizes.requireEqual(ts[0].cols, ts[i].cols, "sizes of the rows of a matrix literal differ");
      out = Type::matrix(count, ts[0].cols);
    }
  } else {
    out = ts[0];
    for (size_t i = 1; i < ts.size(); ++i) {
      const Type& t = ts[i];
      if (t.arrayDims.size() != out.arrayDims.size() || t.shape != out.shape) {
        diags_.error(e.args[i]->span, "the elements of '{...}' must have one type; element 1 is " + toString(ts[0]) +
                                          ", element " + std::to_string(i + 1) + " is " + toString(t));
        return Type::poisoned();
      }
      if (t.base == Base::Real) out.base = Base::Real;
      for (size_t d = 0; d < t.arrayDims.size(); ++d)
        sizes.requireEqual(out.arrayDims[d], t.arrayDims[d], "array sizes of the elements of an array literal differ");
      if (t.shape == Shape::Vector || t.shape == Shape::Matrix)
        sizes.requireEqual(out.rows, t.rows, "sizes of the elements of an array literal differ");
      if (t.shape == Shape::RowVector || t.shape == Shape::Matrix)
        sizes.requireEqual(out.cols, t.cols, "sizes of the elements of an array literal differ");
    }
    out.arrayDims.insert(out.arrayDims.begin(), count);
  }
  recordSizes(sizes, e.span);
  return out;
}

namespace {

// Stan's functions that take a function as an argument, which pvic does not have: their function
// argument would otherwise be reported as an undefined name.
const char* higherOrderKind(const std::string& name) {
  static const std::set<std::string> ode = {
      "ode_rk45", "ode_rk45_tol", "ode_bdf",
      "ode_bdf_tol", "ode_adams", "ode_adams_tol", "ode_ckrk", "ode_ckrk_tol", "ode_adjoint_tol_ctl"};
  static const std::set<std::string> algebra = {"algebra_solver", "algebra_solver_newton", "solve_newton",
                                                "solve_newton_tol", "solve_powell", "solve_powell_tol"};
  if (ode.count(name)) return "ODE solver";
  if (algebra.count(name)) return "algebraic equation solver";
  if (name == "dae" || name == "dae_tol") return "DAE solver";
  if (name == "integrate_1d") return "1-D integrator";
  if (name == "map_rect" || name == "reduce_sum" || name == "reduce_sum_static") return "parallel map";
  return nullptr;
}

}  // namespace

Type Checker::checkCall(Expr& e) {
  if (userFunction(e.text) == nullptr && isOdeSolver(e.text)) return checkOdeCall(e);
  if (userFunction(e.text) == nullptr && isVariadicOdeSolver(e.text)) return checkVariadicOdeCall(e);
  if (const char* kind = userFunction(e.text) == nullptr ? higherOrderKind(e.text) : nullptr) {
    const bool ode = std::string(kind) == "ODE solver";
    diags_.error(e.nameSpan, "'" + e.text + "' (Stan's " + kind + ") is not supported yet" +
                                 (ode ? ": pvic has ode_rk45, ode_bdf, ode_adams and ode_ckrk (and their _tol "
                                        "forms), and integrate_ode_rk45, integrate_ode_bdf and integrate_ode_adams"
                                      : ": pvic has no functions that take a function as an argument"));
    return Type::poisoned();
  }
  if (userFunction(e.text) != nullptr) {  // a call inlining refused, with a message
    for (ExprPtr& a : e.args) checkExpr(*a);
    return Type::poisoned();
  }
  if (const stdlib::DistributionEntry* d = stdlib::findDensityFunction(e.text)) {
    if (!e.conditional && !(d->params.empty() && e.args.size() == 1)) {
      for (ExprPtr& a : e.args) checkExpr(*a);
      std::string example = e.text + "(y | ";
      for (size_t i = 0; i < d->paramNames.size(); ++i) example += (i ? ", " : "") + d->paramNames[i];
      diags_.error(e.nameSpan, "'" + e.text + "' takes its variate before a '|', as in " + example + ")");
      return Type::poisoned();
    }
    if (e.args.empty()) {
      diags_.error(e.nameSpan, "'" + e.text + "' needs a variate");
      return Type::poisoned();
    }
    const std::string cdf = stdlib::cdfSuffix(e.text);
    if (!cdf.empty() && !stdlib::hasCdf(*d)) {
      for (ExprPtr& a : e.args) checkExpr(*a);
      std::string with;
      for (const stdlib::DistributionEntry& other : stdlib::distributions())
        if (stdlib::hasCdf(other)) with += (with.empty() ? "" : ", ") + other.name;
      diags_.error(e.nameSpan, "pvic has no CDF of '" + d->name + "' yet ('" + e.text + "'); the distributions with "
                               "_lcdf, _lccdf and _cdf are " + with);
      return Type::poisoned();
    }
    std::vector<Expr*> args;
    for (ExprPtr& a : e.args) args.push_back(a.get());
    size_t errorsBefore = diags_.errorCount();
    checkDistributionArgs(*d, args, e.nameSpan, e.span, e.text);
    if (cdf.empty()) markPriors(*e.args[0]);  // a CDF of a latent is not its prior
    return diags_.errorCount() == errorsBefore ? Type::realScalar() : Type::poisoned();
  }
  for (const char* suffix : {"_lpdf", "_lpmf"}) {
    std::string sfx(suffix);
    if (e.text.size() <= sfx.size() || e.text.compare(e.text.size() - sfx.size(), sfx.size(), sfx) != 0) continue;
    const std::string base = e.text.substr(0, e.text.size() - sfx.size());
    if (const auto* d = stdlib::findDistribution(base)) {  // the other suffix of a known distribution
      for (ExprPtr& a : e.args) checkExpr(*a);
      diags_.error(e.nameSpan, "'" + base + "' is " + (d->discrete ? "discrete" : "continuous") + "; its density is " +
                                   base + (d->discrete ? "_lpmf" : "_lpdf") + ", not " + e.text);
      return Type::poisoned();
    }
  }
  std::vector<Type> types;
  std::vector<Size> sizes;
  bool anyError = false;
  for (ExprPtr& a : e.args) {
    types.push_back(checkExpr(*a));
    anyError = anyError || types.back().error;
    sizes.push_back(types.back().isIntScalar() ? sizeValue(*a) : Size::unknown());
  }
  if (e.conditional) {
    diags_.error(e.nameSpan, "'|' separates the variate only in density functions such as normal_lpdf(y | mu, sigma); "
                             "'" + e.text + "' is not one");
    return Type::poisoned();
  }
  const stdlib::FunctionEntry* f = stdlib::findFunction(e.text);
  if (f == nullptr) {
    if (lookup(e.text) != nullptr) {
      diags_.error(e.nameSpan, "'" + e.text + "' is a variable, not a function");
    } else if (stdlib::findDistribution(e.text) != nullptr) {
      const auto* d = stdlib::findDistribution(e.text);
      diags_.error(e.nameSpan, "'" + e.text + "' is a distribution; use it in 'y ~ " + e.text +
                                   "(...)' or call " + e.text + (d->discrete ? "_lpmf" : "_lpdf") + "(y | ...)");
    } else {
      std::vector<std::string> names;
      for (const auto& fn : stdlib::functions()) names.push_back(fn.name);
      std::string suggestion = closestName(e.text, names);
      diags_.error(e.nameSpan, "unknown function '" + e.text + "'" +
                                   (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
    }
    return Type::poisoned();
  }
  if (anyError) return Type::poisoned();
  if (stdlib::findRngOp(e.text) != nullptr && block_ != BlockKind::Generated && block_ != BlockKind::TransformedData) {
    for (const Block& b : out_.program.blocks) {
      if (!(e.span.begin >= b.span.begin && e.span.end <= b.span.end)) continue;
      if (b.kind == BlockKind::TransformedParameters) {
        diags_.error(e.nameSpan, "'" + e.text + "' draws random numbers; _rng functions belong in the generated "
                                 "block ('generated quantities'), not the 'transformed parameters' block");
        return Type::poisoned();
      }
    }
    diags_.error(e.nameSpan, "'" + e.text + "' draws random numbers; _rng functions belong in the generated block "
                             "('generated quantities'), not the " + std::string(blockKeyword(block_)) + " block");
    return Type::poisoned();
  }
  return applySignature(*f, e, types, sizes, false);
}

Type Checker::checkIndex(Expr& e) {
  Type base = checkExpr(*e.args[0]);
  if (e.broadcast && base.arrayDims.empty()) {  // a scalar bound, the same at every element
    Expr bound = std::move(*e.args[0]);
    e = std::move(bound);
    return base;
  }
  // Dimensions of the indexed value, outermost first: array dims, then rows / columns.
  enum class Dim { Array, Rows, Cols };
  struct D {
    Dim dim;
    Size size;
  };
  std::vector<D> dims;
  for (const Size& s : base.arrayDims) dims.push_back({Dim::Array, s});
  if (base.shape == Shape::Vector || base.shape == Shape::Matrix) dims.push_back({Dim::Rows, base.rows});
  if (base.shape == Shape::RowVector || base.shape == Shape::Matrix) dims.push_back({Dim::Cols, base.cols});

  bool failed = base.error;
  std::vector<D> kept;
  size_t next = 0;
  for (IndexSyntax& idx : e.indices) {
    Type lo = idx.lo ? checkExpr(*idx.lo) : Type::intScalar();
    Type hi = idx.hi ? checkExpr(*idx.hi) : Type::intScalar();
    if (lo.error || hi.error) failed = true;
    if (failed) continue;
    if (next >= dims.size()) {
      diags_.error(idx.span, "too many indices for a value of type " + toString(base) + ": it takes at most " +
                                 std::to_string(dims.size()));
      failed = true;
      continue;
    }
    D d = dims[next++];
    if (idx.kind == IndexSyntax::Kind::Single) {
      if (lo.isIntScalar()) continue;  // a single index removes the dimension
      if (stdlib::accepts(stdlib::Param::IntArray, lo)) {  // multi-index: b[child]
        kept.push_back({d.dim, lo.arrayDims[0]});
        continue;
      }
      diags_.error(idx.lo->span, "an index must be an int or an array of ints; found " + toString(lo));
      failed = true;
      continue;
    }
    for (const Expr* end : {idx.lo.get(), idx.hi.get()}) {
      if (end && !end->type.isIntScalar()) {
        diags_.error(end->span, "the ends of a slice must be ints; found " + toString(end->type));
        failed = true;
      }
    }
    if (failed) continue;
    Size loSize = idx.lo ? sizeValue(*idx.lo) : Size::constant(1);
    Size hiSize = idx.hi ? sizeValue(*idx.hi) : d.size;
    Size len;
    if (loSize.value && hiSize.value) {
      len = Size::constant(std::max<int64_t>(0, *hiSize.value - *loSize.value + 1));
    } else if (loSize.value && *loSize.value == 1) {
      len = hiSize;
    } else {
      len = Size::symbol("(" + hiSize.text + " - " + loSize.text + " + 1)");
    }
    kept.push_back({d.dim, len});
  }
  if (failed) return Type::poisoned();
  // Dimensions not indexed are kept whole.
  for (; next < dims.size(); ++next) kept.push_back(dims[next]);
  Type t;
  t.base = base.base;
  bool rows = false, cols = false;
  for (const D& d : kept) {
    if (d.dim == Dim::Array) t.arrayDims.push_back(d.size);
    if (d.dim == Dim::Rows) rows = true, t.rows = d.size;
    if (d.dim == Dim::Cols) cols = true, t.cols = d.size;
  }
  t.shape = rows && cols ? Shape::Matrix : rows ? Shape::Vector : cols ? Shape::RowVector : Shape::Scalar;
  // A multi-index on an array of scalars of a vector keeps the container kind.
  return t;
}

Size Checker::sizeValue(const Expr& e) const {
  switch (e.kind) {
    case ExprKind::IntLit: {
      int64_t v = 0;
      std::from_chars(e.text.data(), e.text.data() + e.text.size(), v);
      return Size::constant(v);
    }
    case ExprKind::Name:
      // (A transformed int assigned again has one value after its block, several inside it.)
      if (e.symbol != nullptr && reassigned_.count(e.symbol->name) &&
          (e.symbol->kind == SymbolKind::ModelVar || e.symbol->kind == SymbolKind::GeneratedVar ||
           (e.symbol->transformed && block_ == BlockKind::TransformedData))) {
        LineCol lc = diags_.file().lineCol(e.span.begin);
        return Size::symbol(e.text + "@" + std::to_string(lc.line) + ":" + std::to_string(lc.col));
      }
      // An int computed once (an inlined function's argument, say) is the size of its value.
      if (e.symbol != nullptr && e.symbol->decl != nullptr && e.symbol->decl->kind == StmtKind::Decl &&
          !e.symbol->decl->exprs.empty() && e.symbol->type.isIntScalar() &&
          (e.symbol->kind == SymbolKind::ModelVar || e.symbol->kind == SymbolKind::GeneratedVar))
        return sizeValue(*e.symbol->decl->exprs[0]);
      return Size::symbol(e.text);
    case ExprKind::Unary:
      if (e.text == "-") {
        Size a = sizeValue(*e.args[0]);
        if (a.value) return Size::constant(-*a.value);
        return Size::symbol("-" + a.text);
      }
      if (e.text == "+") return sizeValue(*e.args[0]);
      break;
    case ExprKind::Binary: {
      Size a = sizeValue(*e.args[0]);
      Size b = sizeValue(*e.args[1]);
      if (a.value && b.value) {
        int64_t x = *a.value, y = *b.value;
        if (e.text == "+") return Size::constant(x + y);
        if (e.text == "-") return Size::constant(x - y);
        if (e.text == "*") return Size::constant(x * y);
        if (e.text == "/" && y != 0) return Size::constant(x / y);
        if (e.text == "%" && y != 0) return Size::constant(x % y);
      }
      return Size::symbol("(" + a.text + " " + e.text + " " + b.text + ")");
    }
    case ExprKind::Call: {
      // size(x), rows(x), cols(x) of a declared value are that value's declared sizes.
      if (e.args.size() == 1 && !e.args[0]->type.error) {
        const Type& t = e.args[0]->type;
        if (e.text == "size" && t.isArray()) return t.arrayDims[0];
        if ((e.text == "size" || e.text == "rows") && !t.isArray() && t.shape == Shape::Vector) return t.rows;
        if ((e.text == "size" || e.text == "cols") && !t.isArray() && t.shape == Shape::RowVector) return t.cols;
        if (e.text == "rows" && !t.isArray() && t.shape == Shape::Matrix) return t.rows;
        if (e.text == "cols" && !t.isArray() && t.shape == Shape::Matrix) return t.cols;
      }
      break;
    }
    case ExprKind::Index: {
      // dims(x)[k] with a constant k is x's k-th dimension.
      const Expr& base = *e.args[0];
      if (base.kind == ExprKind::Call && base.text == "dims" && base.args.size() == 1 && !base.args[0]->type.error &&
          e.indices.size() == 1 && e.indices[0].kind == IndexSyntax::Kind::Single && e.indices[0].lo) {
        const Size k = sizeValue(*e.indices[0].lo);
        const Type& t = base.args[0]->type;
        std::vector<Size> dims = t.arrayDims;
        if (t.shape == Shape::Vector) dims.insert(dims.end(), {t.rows, Size::constant(1)});
        if (t.shape == Shape::RowVector) dims.insert(dims.end(), {Size::constant(1), t.cols});
        if (t.shape == Shape::Matrix) dims.insert(dims.end(), {t.rows, t.cols});
        if (k.value && *k.value >= 1 && *k.value <= static_cast<int64_t>(dims.size()))
          return dims[static_cast<size_t>(*k.value - 1)];
      }
      break;
    }
    default: break;
  }
  return Size::symbol(printExpr(e));
}

}  // namespace pvi
