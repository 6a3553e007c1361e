#include "compiler/sema/Signatures.hpp"

#include "stdlib/Ops.hpp"

#include <algorithm>
#include <map>

namespace pvi::stdlib {

using P = Param;

std::string describe(Param p) {
  switch (p) {
    case P::Int: return "int";
    case P::Real: return "real";
    case P::Vector: return "vector";
    case P::RowVector: return "row_vector";
    case P::Matrix: return "matrix";
    case P::Vectors: return "vector or array[] vector";
    case P::IntArray: return "array[] int";
    case P::Ints: return "int or array[] int";
    case P::Reals: return "real, vector, row_vector, matrix or array[] real";
    case P::Reals1D: return "real, vector, row_vector or array[] real";
    case P::Container: return "vector, row_vector or array[] real";
    case P::Array2D: return "array[,] real or array[,] int";
    case P::Any: return "a numeric value";
  }
  return "?";
}

std::optional<Size> length1D(const Type& t) {
  if (t.arrayDims.size() == 1 && t.shape == Shape::Scalar) return t.arrayDims[0];
  if (t.isArray()) return std::nullopt;
  if (t.shape == Shape::Vector) return t.rows;
  if (t.shape == Shape::RowVector) return t.cols;
  return std::nullopt;
}

bool accepts(Param p, const Type& t) {
  bool oneDimArray = t.arrayDims.size() == 1 && t.shape == Shape::Scalar;
  switch (p) {
    case P::Int: return t.isIntScalar();
    case P::Real: return t.isScalar();
    case P::Vector: return !t.isArray() && t.shape == Shape::Vector;
    case P::RowVector: return !t.isArray() && t.shape == Shape::RowVector;
    case P::Matrix: return !t.isArray() && t.shape == Shape::Matrix;
    case P::Vectors: return t.shape == Shape::Vector && t.arrayDims.size() <= 1;
    case P::IntArray: return oneDimArray && t.base == Base::Int;
    case P::Ints: return t.isIntScalar() || (oneDimArray && t.base == Base::Int);
    case P::Reals: return t.isScalar() || t.isEigen() || oneDimArray;
    case P::Reals1D: return t.isScalar() || (t.isEigen() && t.shape != Shape::Matrix) || oneDimArray;
    case P::Container: return (t.isEigen() && t.shape != Shape::Matrix) || oneDimArray;
    case P::Array2D: return t.arrayDims.size() == 2 && t.shape == Shape::Scalar;
    case P::Any: return true;
  }
  return false;
}

void SizeChecker::requireEqual(const Size& a, const Size& b, const std::string& what) {
  switch (compareSizes(a, b)) {
    case SizeRelation::Equal: return;
    case SizeRelation::Different: errors.push_back(what + " (" + a.text + " vs " + b.text + ")"); return;
    case SizeRelation::Unknown: deferred.push_back({a, b, what}); return;
  }
}

namespace {

Type realOf(Type t) {
  t.base = Base::Real;
  return t;
}

// Every non-scalar argument must have the same shape and sizes; the result is that shape.
void requireSameShape(const std::vector<Type>& ts, SizeChecker& sizes, const std::string& what) {
  const Type* first = nullptr;
  for (const Type& t : ts) {
    if (t.isScalar()) continue;
    if (first == nullptr) {
      first = &t;
      continue;
    }
    auto la = length1D(*first), lb = length1D(t);
    if (la && lb) {
      sizes.requireEqual(*la, *lb, "sizes of " + what + " differ");
    } else if (first->shape == Shape::Matrix && t.shape == Shape::Matrix && !first->isArray() && !t.isArray()) {
      sizes.requireEqual(first->rows, t.rows, "row counts of " + what + " differ");
      sizes.requireEqual(first->cols, t.cols, "column counts of " + what + " differ");
    } else {
      sizes.errors.push_back("shapes of " + what + " differ (" + toString(*first) + " vs " + toString(t) + ")");
    }
  }
}

Type promoteScalars(const std::vector<Type>& ts) {
  bool allInt = std::all_of(ts.begin(), ts.end(), [](const Type& t) { return t.base == Base::Int; });
  return allInt ? Type::intScalar() : Type::realScalar();
}

ResultRule returns(Type t) {
  return [t](const CallArgs&) { return t; };
}
ResultRule returnsArgAsReal(size_t i) {
  return [i](const CallArgs& a) { return realOf(a.types[i]); };
}
// Element-wise binary operation of two same-kind operands (or scalar with anything).
ResultRule elementwise(const std::string& what) {
  return [what](const CallArgs& a) {
    requireSameShape(a.types, a.sizes, "the operands of " + what);
    for (const Type& t : a.types)
      if (!t.isScalar()) return realOf(t);
    return promoteScalars(a.types);
  };
}

std::vector<FunctionEntry> buildOperators() {
  std::vector<FunctionEntry> ops;
  auto arith = [&](const std::string& op) {
    FunctionEntry e{op, {}};
    e.signatures.push_back({{P::Real, P::Real}, [](const CallArgs& a) { return promoteScalars(a.types); }});
    for (P c : {P::Vector, P::RowVector, P::Matrix}) {
      e.signatures.push_back({{c, c}, elementwise("'" + op + "'")});
      e.signatures.push_back({{P::Real, c}, returnsArgAsReal(1)});
      e.signatures.push_back({{c, P::Real}, returnsArgAsReal(0)});
    }
    ops.push_back(std::move(e));
  };
  arith("+");
  arith("-");

  FunctionEntry mul{"*", {}};
  mul.signatures.push_back({{P::Real, P::Real}, [](const CallArgs& a) { return promoteScalars(a.types); }});
  for (P c : {P::Vector, P::RowVector, P::Matrix}) {
    mul.signatures.push_back({{P::Real, c}, returnsArgAsReal(1)});
    mul.signatures.push_back({{c, P::Real}, returnsArgAsReal(0)});
  }
  auto inner = [](const Size& a, const Size& b, SizeChecker& s) {
    s.requireEqual(a, b, "inner dimensions of '*' differ");
  };
  mul.signatures.push_back({{P::Matrix, P::Vector}, [inner](const CallArgs& a) {
                              inner(a.types[0].cols, a.types[1].rows, a.sizes);
                              return Type::vector(a.types[0].rows);
                            }});
  mul.signatures.push_back({{P::RowVector, P::Matrix}, [inner](const CallArgs& a) {
                              inner(a.types[0].cols, a.types[1].rows, a.sizes);
                              return Type::rowVector(a.types[1].cols);
                            }});
  mul.signatures.push_back({{P::Matrix, P::Matrix}, [inner](const CallArgs& a) {
                              inner(a.types[0].cols, a.types[1].rows, a.sizes);
                              return Type::matrix(a.types[0].rows, a.types[1].cols);
                            }});
  mul.signatures.push_back({{P::RowVector, P::Vector}, [inner](const CallArgs& a) {
                              inner(a.types[0].cols, a.types[1].rows, a.sizes);
                              return Type::realScalar();
                            }});
  mul.signatures.push_back({{P::Vector, P::RowVector},
                            [](const CallArgs& a) { return Type::matrix(a.types[0].rows, a.types[1].cols); }});
  ops.push_back(std::move(mul));

  FunctionEntry div{"/", {}};
  div.signatures.push_back({{P::Real, P::Real}, [](const CallArgs& a) { return promoteScalars(a.types); }});
  for (P c : {P::Vector, P::RowVector, P::Matrix}) div.signatures.push_back({{c, P::Real}, returnsArgAsReal(0)});
  ops.push_back(std::move(div));

  ops.push_back({"%", {{{P::Int, P::Int}, returns(Type::intScalar())}}});

  auto elementwiseOp = [&](const std::string& op) {
    FunctionEntry e{op, {}};
    for (P c : {P::Vector, P::RowVector, P::Matrix}) {
      e.signatures.push_back({{c, c}, elementwise("'" + op + "'")});
      e.signatures.push_back({{P::Real, c}, returnsArgAsReal(1)});
      e.signatures.push_back({{c, P::Real}, returnsArgAsReal(0)});
    }
    return e;
  };
  // .* and ./ of two reals are * and / (Stan allows them).
  for (const char* op : {".*", "./"}) {
    FunctionEntry e = elementwiseOp(op);
    e.signatures.insert(e.signatures.begin(), {{P::Real, P::Real}, returns(Type::realScalar())});
    ops.push_back(std::move(e));
  }
  FunctionEntry pow{"^", {{{P::Real, P::Real}, returns(Type::realScalar())}}};
  ops.push_back(std::move(pow));
  FunctionEntry epow = elementwiseOp(".^");
  epow.signatures.insert(epow.signatures.begin(), {{P::Real, P::Real}, returns(Type::realScalar())});
  ops.push_back(std::move(epow));

  FunctionEntry neg{"u-", {{{P::Real}, [](const CallArgs& a) { return a.types[0]; }}}};
  for (P c : {P::Vector, P::RowVector, P::Matrix}) neg.signatures.push_back({{c}, returnsArgAsReal(0)});
  ops.push_back(neg);
  neg.name = "u+";
  ops.push_back(neg);
  ops.push_back({"!", {{{P::Real}, returns(Type::intScalar())}}});
  for (const char* op : {"<", "<=", ">", ">=", "==", "!=", "&&", "||"})
    ops.push_back({op, {{{P::Real, P::Real}, returns(Type::intScalar())}}});

  ops.push_back({"'",
                 {{{P::Vector}, [](const CallArgs& a) { return Type::rowVector(a.types[0].rows); }},
                  {{P::RowVector}, [](const CallArgs& a) { return Type::vector(a.types[0].cols); }},
                  {{P::Matrix}, [](const CallArgs& a) { return Type::matrix(a.types[0].cols, a.types[0].rows); }}}});
  return ops;
}

// The _rng function of every distribution (generated quantities only; the checker enforces
// that). Vectorised ones return one draw for scalar arguments, else an array of draws of the
// containers' length; categorical gives one int, dirichlet and multi_normal one vector.
void addRngFunctions(std::vector<FunctionEntry>& fns) {
  for (const DistributionEntry& d : distributions()) {
    const std::string name = d.name + "_rng";
    if (findRngOp(name) == nullptr) continue;  // the GLMs have none
    Type scalar = d.discrete ? Type::intScalar() : Type::realScalar();
    if (d.name == "categorical" || d.name == "categorical_logit") {
      fns.push_back({name, {{{P::Vector}, returns(Type::intScalar())}}});
    } else if (d.name == "dirichlet") {
      fns.push_back({name, {{{P::Vector}, returnsArgAsReal(0)}}});
    } else if (d.name == "multi_normal" || d.name == "multi_normal_cholesky") {
      fns.push_back({name, {{{P::Vector, P::Matrix}, [name](const CallArgs& a) {
                               a.sizes.requireEqual(a.types[1].rows, a.types[1].cols,
                                                    "the matrix of '" + name + "' is not square");
                               a.sizes.requireEqual(a.types[0].rows, a.types[1].rows,
                                                    "sizes of the mean and the matrix of '" + name + "' differ");
                               return Type::vector(a.types[0].rows);
                             }}}});
    } else {
      std::vector<P> params = d.params;  // as in Stan, no matrices
      for (P& p : params)
        if (p == P::Reals) p = P::Reals1D;
      fns.push_back({name, {{params, [name, scalar](const CallArgs& a) {
                               requireSameShape(a.types, a.sizes, "the arguments of '" + name + "'");
                               for (const Type& t : a.types)
                                 if (!t.isScalar()) {  // one-dimensional (Reals1D)
                                   Type out = scalar;
                                   out.arrayDims = {*length1D(t)};
                                   return out;
                                 }
                               return scalar;
                             }}}});
    }
  }
}

// a + b as a size.
Size addSizes(const Size& a, const Size& b) {
  if (a.value && b.value) return Size::constant(*a.value + *b.value);
  return Size::symbol("(" + a.text + " + " + b.text + ")");
}

// append_row stacks vectors (and reals) into a vector, or matrices and row_vectors into a matrix;
// append_col puts row_vectors (and reals) into a row_vector, or matrices and vectors side by side.
// The two are one rule with rows and columns exchanged.
void addConcatenations(std::vector<FunctionEntry>& fns) {
  // The rows a real, vector, row_vector or matrix contributes, and its columns.
  Size (*rowsOf)(const Type&) = [](const Type& t) {
    return t.shape == Shape::Scalar || t.shape == Shape::RowVector ? Size::constant(1) : t.rows;
  };
  Size (*colsOf)(const Type&) = [](const Type& t) {
    return t.shape == Shape::Scalar || t.shape == Shape::Vector ? Size::constant(1) : t.cols;
  };
  for (const bool byRows : {true, false}) {
    const std::string name = byRows ? "append_row" : "append_col";
    const auto along = byRows ? rowsOf : colsOf, across = byRows ? colsOf : rowsOf;
    const P line = byRows ? P::Vector : P::RowVector, cross = byRows ? P::RowVector : P::Vector;
    FunctionEntry f{name, {}};
    for (P a : {P::Real, line})
      for (P b : {P::Real, line})
        if (a == line || b == line)
          f.signatures.push_back({{a, b}, [along, byRows](const CallArgs& c) {
                                    const Size n = addSizes(along(c.types[0]), along(c.types[1]));
                                    return byRows ? Type::vector(n) : Type::rowVector(n);
                                  }});
    for (P a : {cross, P::Matrix})
      for (P b : {cross, P::Matrix})
        f.signatures.push_back({{a, b}, [along, across, byRows, name](const CallArgs& c) {
                                  c.sizes.requireEqual(across(c.types[0]), across(c.types[1]),
                                                       std::string("the ") + (byRows ? "columns" : "rows") +
                                                           " of the arguments of '" + name + "' differ");
                                  const Size n = addSizes(along(c.types[0]), along(c.types[1]));
                                  const Size other = across(c.types[0]);
                                  return byRows ? Type::matrix(n, other) : Type::matrix(other, n);
                                }});
    fns.push_back(std::move(f));
  }
}

std::vector<FunctionEntry> buildFunctions() {
  std::vector<FunctionEntry> fns;
  // Element-wise real functions of anything numeric; int arguments are promoted.
  for (const char* f : {"exp", "log", "log1p", "expm1", "log1m", "log1m_exp", "lgamma", "digamma", "inv_logit", "log_inv_logit",
                        "log1m_inv_logit", "logit", "sqrt", "square", "tanh", "relu", "inv", "log10"}) {
    fns.push_back({f, {{{P::Any}, returnsArgAsReal(0)}}});
  }
  // Stan's constants, called with no arguments (log10() besides log10(x)).
  for (const MathConstant& c : mathConstants()) {
    auto same = std::find_if(fns.begin(), fns.end(), [&](const FunctionEntry& f) { return f.name == c.name; });
    if (same == fns.end()) same = fns.insert(fns.end(), FunctionEntry{c.name, {}});
    same->signatures.push_back({{}, returns(Type::realScalar())});
  }
  fns.push_back({"abs", {{{P::Int}, returns(Type::intScalar())}, {{P::Any}, returnsArgAsReal(0)}}});
  fns.push_back({"pow", {{{P::Real, P::Real}, returns(Type::realScalar())}}});
  fns.push_back({"fmax", {{{P::Real, P::Real}, returns(Type::realScalar())}}});
  fns.push_back({"fmin", {{{P::Real, P::Real}, returns(Type::realScalar())}}});
  // max and min of two values, or of a container's elements (an int for an int array).
  for (const char* f : {"max", "min"})
    fns.push_back({f,
                   {{{P::Int, P::Int}, returns(Type::intScalar())},
                    {{P::Real, P::Real}, returns(Type::realScalar())},
                    {{P::IntArray}, returns(Type::intScalar())},
                    {{P::Container}, returns(Type::realScalar())},
                    {{P::Matrix}, returns(Type::realScalar())}}});
  fns.push_back({"log_sum_exp",
                 {{{P::Real, P::Real}, returns(Type::realScalar())},
                  {{P::Container}, returns(Type::realScalar())},
                  {{P::Matrix}, returns(Type::realScalar())}}});
  for (const char* f : {"softmax", "log_softmax"}) fns.push_back({f, {{{P::Vector}, returnsArgAsReal(0)}}});
  fns.push_back({"sum",
                 {{{P::IntArray}, returns(Type::intScalar())},
                  {{P::Container}, returns(Type::realScalar())},
                  {{P::Matrix}, returns(Type::realScalar())}}});
  // Reductions of a container's elements to a real (Stan's; variance and sd with n - 1).
  for (const char* f : {"mean", "dot_self", "variance", "sd", "prod"})
    fns.push_back({f, {{{P::Container}, returns(Type::realScalar())}, {{P::Matrix}, returns(Type::realScalar())}}});
  auto dot = [](const CallArgs& a) {
    a.sizes.requireEqual(*length1D(a.types[0]), *length1D(a.types[1]), "sizes of the arguments of 'dot_product' differ");
    return Type::realScalar();
  };
  FunctionEntry dotProduct{"dot_product", {}};
  for (P x : {P::Vector, P::RowVector})
    for (P y : {P::Vector, P::RowVector}) dotProduct.signatures.push_back({{x, y}, dot});
  fns.push_back(std::move(dotProduct));
  fns.push_back({"rows",
                 {{{P::Vector}, returns(Type::intScalar())},
                  {{P::RowVector}, returns(Type::intScalar())},
                  {{P::Matrix}, returns(Type::intScalar())}}});
  fns.push_back({"cols", fns.back().signatures});
  fns.back().name = "cols";
  fns.push_back({"size", {{{P::Any}, returns(Type::intScalar())}}});
  // dims(x): x's array dimensions, outermost first, then rows and columns for a vector, row_vector
  // or matrix (both, as Stan Math: a vector[n] is {n, 1}).
  fns.push_back({"dims", {{{P::Any}, [](const CallArgs& a) {
                            const Type& x = a.types[0];
                            Type t = Type::intScalar();
                            const auto n = static_cast<int64_t>(x.arrayDims.size() + (x.shape == Shape::Scalar ? 0 : 2));
                            t.arrayDims.push_back(Size::constant(n));
                            return t;
                          }}}});
  fns.push_back({"rep_vector", {{{P::Real, P::Int}, [](const CallArgs& a) { return Type::vector(a.asSize[1]); }}}});
  // rep_array(x, n), (x, m, n), (x, k, m, n): an array of copies of an int, a real, a vector or a
  // row_vector.
  {
    FunctionEntry repArray{"rep_array", {}};
    auto arrayOf = [](const CallArgs& a) {
      Type t = a.types[0];
      t.arrayDims.assign(a.asSize.begin() + 1, a.asSize.end());
      return t;
    };
    for (P x : {P::Int, P::Real, P::Vector, P::RowVector})
      for (size_t dims = 1; dims <= (x == P::Int || x == P::Real ? 3u : 1u); ++dims) {
        std::vector<P> params{x};
        params.insert(params.end(), dims, P::Int);
        repArray.signatures.push_back({params, arrayOf});
      }
    fns.push_back(std::move(repArray));
  }
  fns.push_back(
      {"rep_row_vector", {{{P::Real, P::Int}, [](const CallArgs& a) { return Type::rowVector(a.asSize[1]); }}}});
  fns.push_back({"rep_matrix",
                 {{{P::Real, P::Int, P::Int}, [](const CallArgs& a) { return Type::matrix(a.asSize[1], a.asSize[2]); }},
                  // n copies of a column vector side by side; m copies of a row vector stacked.
                  {{P::Vector, P::Int}, [](const CallArgs& a) { return Type::matrix(a.types[0].rows, a.asSize[1]); }},
                  {{P::RowVector, P::Int},
                   [](const CallArgs& a) { return Type::matrix(a.asSize[1], a.types[0].cols); }}}});
  // diag(v) * M and M * diag(v): v (a vector or row_vector) as long as M's rows (columns).
  for (const bool pre : {true, false}) {
    const std::string name = pre ? "diag_pre_multiply" : "diag_post_multiply";
    const size_t m = pre ? 1 : 0, v = 1 - m;
    std::vector<Signature> both;
    for (const P vector : {P::Vector, P::RowVector})
      both.push_back({pre ? std::vector<P>{vector, P::Matrix} : std::vector<P>{P::Matrix, vector},
                      [name, pre, m, v](const CallArgs& a) {
                        a.sizes.requireEqual(*length1D(a.types[v]), pre ? a.types[m].rows : a.types[m].cols,
                                             "the vector and the " + std::string(pre ? "rows" : "columns") +
                                                 " of the matrix of '" + name + "' differ in size");
                        return Type::matrix(a.types[m].rows, a.types[m].cols);
                      }});
    fns.push_back({name, both});
  }
  std::vector<Signature> quadFormDiag;
  for (const P vector : {P::Vector, P::RowVector})
    quadFormDiag.push_back({{P::Matrix, vector}, [](const CallArgs& a) {
                              a.sizes.requireEqual(a.types[0].rows, a.types[0].cols,
                                                   "the matrix of 'quad_form_diag' is not square");
                              a.sizes.requireEqual(*length1D(a.types[1]), a.types[0].rows,
                                                   "the vector and the matrix of 'quad_form_diag' differ in size");
                              return Type::matrix(a.types[0].rows, a.types[0].cols);
                            }});
  fns.push_back({"quad_form_diag", quadFormDiag});
  // Indexing under other names: calls with these arguments are rewritten as slices before the
  // checker runs (compiler/desugar/IndexingFunctions.hpp); the entries give the checker their
  // signatures for calls with other arguments.
  fns.push_back({"sub_col", {{{P::Matrix, P::Int, P::Int, P::Int}, [](const CallArgs& a) { return Type::vector(a.asSize[3]); }}}});
  fns.push_back(
      {"sub_row", {{{P::Matrix, P::Int, P::Int, P::Int}, [](const CallArgs& a) { return Type::rowVector(a.asSize[3]); }}}});
  fns.push_back({"segment", {{{P::Vector, P::Int, P::Int}, [](const CallArgs& a) { return Type::vector(a.asSize[2]); }}}});
  for (const char* f : {"head", "tail"})
    fns.push_back({f, {{{P::Vector, P::Int}, [](const CallArgs& a) { return Type::vector(a.asSize[1]); }}}});
  for (const char* f : {"cholesky_decompose", "multiply_lower_tri_self_transpose", "eigenvectors_sym"})
    fns.push_back({f, {{{P::Matrix}, [name = std::string(f)](const CallArgs& a) {
                         a.sizes.requireEqual(a.types[0].rows, a.types[0].cols, "the matrix of '" + name + "' is not square");
                         return a.types[0];
                       }}}});
  fns.push_back({"eigenvalues_sym", {{{P::Matrix}, [](const CallArgs& a) {
                                       a.sizes.requireEqual(a.types[0].rows, a.types[0].cols,
                                                            "the matrix of 'eigenvalues_sym' is not square");
                                       return Type::vector(a.types[0].rows);
                                     }}}});
  fns.push_back({"diag_matrix", {{{P::Vector}, [](const CallArgs& a) { return Type::matrix(a.types[0].rows, a.types[0].rows); }}}});
  fns.push_back({"identity_matrix", {{{P::Int}, [](const CallArgs& a) { return Type::matrix(a.asSize[0], a.asSize[0]); }}}});
  // The squared exponential covariance of one set of points (n x n), or between two (n1 x n2).
  fns.push_back({"gp_exp_quad_cov",
                 {{{P::Reals1D, P::Real, P::Real},
                   [](const CallArgs& a) { return Type::matrix(*length1D(a.types[0]), *length1D(a.types[0])); }},
                  {{P::Reals1D, P::Reals1D, P::Real, P::Real},
                   [](const CallArgs& a) { return Type::matrix(*length1D(a.types[0]), *length1D(a.types[1])); }}}});
  // log(theta * exp(lp1) + (1 - theta) * exp(lp2)), a two-component mixture on the log scale.
  fns.push_back({"log_mix", {{{P::Real, P::Real, P::Real}, returns(Type::realScalar())}}});
  fns.push_back({"log_diff_exp", {{{P::Real, P::Real}, returns(Type::realScalar())}}});
  fns.push_back({"to_vector",
                 {{{P::Container}, [](const CallArgs& a) { return Type::vector(*length1D(a.types[0])); }},
                  {{P::Matrix}, [](const CallArgs& a) {
                     const Type& m = a.types[0];
                     if (m.rows.value && m.cols.value) return Type::vector(Size::constant(*m.rows.value * *m.cols.value));
                     return Type::vector(Size::symbol("(" + m.rows.text + " * " + m.cols.text + ")"));
                   }}}});
  // Column j and row i of a matrix (1-based, checked as an index).
  fns.push_back({"col", {{{P::Matrix, P::Int}, [](const CallArgs& a) { return Type::vector(a.types[0].rows); }}}});
  fns.push_back({"row", {{{P::Matrix, P::Int}, [](const CallArgs& a) { return Type::rowVector(a.types[0].cols); }}}});
  // to_matrix of a matrix, a vector (one column), a row_vector (one row) or a 2-D array (its
  // first index the row).
  fns.push_back({"to_matrix",
                 {{{P::Matrix}, [](const CallArgs& a) { return a.types[0]; }},
                  {{P::Vector}, [](const CallArgs& a) { return Type::matrix(a.types[0].rows, Size::constant(1)); }},
                  {{P::RowVector}, [](const CallArgs& a) { return Type::matrix(Size::constant(1), a.types[0].cols); }},
                  {{P::Array2D}, [](const CallArgs& a) {
                     return Type::matrix(a.types[0].arrayDims[0], a.types[0].arrayDims[1]);
                   }}}});
  // cumulative_sum: running sums, of the argument's shape (an int array's are reals here).
  fns.push_back({"cumulative_sum", {{{P::Container}, returnsArgAsReal(0)}}});
  addConcatenations(fns);
  fns.push_back({"transpose", {}});
  fns.back().signatures = findOperator("'")->signatures;
  addRngFunctions(fns);
  return fns;
}

// Default size rule: all non-scalar arguments have one shape (vectorised densities broadcast).
std::function<void(const std::vector<Type>&, SizeChecker&)> broadcast(const std::string& name) {
  return [name](const std::vector<Type>& ts, SizeChecker& s) { requireSameShape(ts, s, "the arguments of '" + name + "'"); };
}

std::vector<DistributionEntry> buildDistributions() {
  std::vector<DistributionEntry> ds;
  auto cont = [&](const std::string& name, std::vector<std::string> params) {
    std::vector<P> ps(params.size(), P::Reals);
    ds.push_back({name, false, P::Reals, ps, std::move(params), broadcast(name)});
  };
  cont("normal", {"mu", "sigma"});
  cont("std_normal", {});
  cont("lognormal", {"mu", "sigma"});
  cont("cauchy", {"mu", "sigma"});
  cont("student_t", {"nu", "mu", "sigma"});
  cont("logistic", {"mu", "sigma"});
  cont("double_exponential", {"mu", "sigma"});
  cont("exponential", {"beta"});
  cont("gamma", {"alpha", "beta"});
  cont("weibull", {"alpha", "sigma"});
  cont("inv_gamma", {"alpha", "beta"});
  cont("beta", {"alpha", "beta"});
  cont("uniform", {"alpha", "beta"});

  auto disc = [&](const std::string& name, std::vector<P> ps, std::vector<std::string> names) {
    ds.push_back({name, true, P::Ints, std::move(ps), std::move(names), broadcast(name)});
  };
  disc("bernoulli", {P::Reals}, {"theta"});
  disc("bernoulli_logit", {P::Reals}, {"alpha"});
  disc("binomial", {P::Ints, P::Reals}, {"N", "theta"});
  disc("binomial_logit", {P::Ints, P::Reals}, {"N", "alpha"});
  disc("poisson", {P::Reals}, {"lambda"});
  disc("poisson_log", {P::Reals}, {"alpha"});
  disc("neg_binomial_2", {P::Reals, P::Reals}, {"mu", "phi"});
  // y may be one outcome or an array of outcomes, all with the same probabilities (a simplex) or
  // logits.
  ds.push_back({"categorical", true, P::Ints, {P::Vector}, {"theta"}, [](const std::vector<Type>&, SizeChecker&) {}});
  ds.push_back({"categorical_logit", true, P::Ints, {P::Vector}, {"beta"},
                [](const std::vector<Type>&, SizeChecker&) {}});

  ds.push_back({"dirichlet", false, P::Vector, {P::Vector}, {"alpha"},
                [](const std::vector<Type>& ts, SizeChecker& s) {
                  s.requireEqual(ts[0].rows, ts[1].rows, "sizes of the arguments of 'dirichlet' differ");
                }});
  ds.push_back({"lkj_corr_cholesky", false, P::Matrix, {P::Real}, {"eta"},
                [](const std::vector<Type>& ts, SizeChecker& s) {
                  s.requireEqual(ts[0].rows, ts[0].cols, "the Cholesky factor of 'lkj_corr_cholesky' is not square");
                }});
  ds.push_back({"lkj_corr", false, P::Matrix, {P::Real}, {"eta"}, [](const std::vector<Type>& ts, SizeChecker& s) {
                  s.requireEqual(ts[0].rows, ts[0].cols, "the correlation matrix of 'lkj_corr' is not square");
                }});
  for (const std::string name : {"wishart", "inv_wishart"})
    ds.push_back({name, false, P::Matrix, {P::Real, P::Matrix}, {"nu", "S"},
                  [name](const std::vector<Type>& ts, SizeChecker& s) {
                    s.requireEqual(ts[0].rows, ts[0].cols, "the variate of '" + name + "' is not square");
                    s.requireEqual(ts[2].rows, ts[2].cols, "the scale matrix of '" + name + "' is not square");
                    s.requireEqual(ts[0].rows, ts[2].rows,
                                   "sizes of the variate and the scale matrix of '" + name + "' differ");
                  }});
  // The variate and the mean: each a vector or an array of vectors (n variates; both arrays: the
  // same n).
  auto mvn = [](const std::string& name, const std::string& matrixName) {
    return [name, matrixName](const std::vector<Type>& ts, SizeChecker& s) {
      s.requireEqual(ts[0].rows, ts[1].rows, "sizes of the variate and the mean of '" + name + "' differ");
      if (ts[0].isArray() && ts[1].isArray())
        s.requireEqual(ts[0].arrayDims[0], ts[1].arrayDims[0],
                       "the numbers of variates and of means of '" + name + "' differ");
      s.requireEqual(ts[2].rows, ts[2].cols, "the " + matrixName + " of '" + name + "' is not square");
      s.requireEqual(ts[0].rows, ts[2].rows, "sizes of the variate and the " + matrixName + " of '" + name + "' differ");
    };
  };
  ds.push_back({"multi_normal", false, P::Vectors, {P::Vectors, P::Matrix}, {"mu", "Sigma"},
                mvn("multi_normal", "covariance")});
  ds.push_back({"multi_normal_cholesky", false, P::Vectors, {P::Vectors, P::Matrix}, {"mu", "L"},
                mvn("multi_normal_cholesky", "Cholesky factor")});
  // Generalised linear models: D(y | x, alpha, beta, ...) is D(y | alpha + x * beta, ...), with
  // one row of x per outcome and one coefficient of beta per column.
  auto glm = [](const std::string& name) {
    return [name](const std::vector<Type>& ts, SizeChecker& s) {
      // The outcomes and alpha are scalars or one-dimensional (Ints, Reals1D).
      if (!ts[0].isScalar())
        s.requireEqual(*length1D(ts[0]), ts[1].rows, "the outcomes of '" + name + "' and the rows of x differ in number");
      s.requireEqual(ts[1].cols, ts[3].rows, "the columns of x and the coefficients beta of '" + name + "' differ in number");
      if (!ts[2].isScalar())
        s.requireEqual(*length1D(ts[2]), ts[1].rows, "the intercepts alpha of '" + name + "' and the rows of x differ in number");
    };
  };
  ds.push_back({"bernoulli_logit_glm", true, P::Ints, {P::Matrix, P::Reals1D, P::Vector}, {"x", "alpha", "beta"},
                glm("bernoulli_logit_glm")});
  ds.push_back({"poisson_log_glm", true, P::Ints, {P::Matrix, P::Reals1D, P::Vector}, {"x", "alpha", "beta"},
                glm("poisson_log_glm")});
  ds.push_back({"normal_id_glm", false, P::Reals1D, {P::Matrix, P::Reals1D, P::Vector, P::Reals1D},
                {"x", "alpha", "beta", "sigma"}, glm("normal_id_glm")});
  return ds;
}

template <class T>
const T* findIn(const std::vector<T>& v, const std::string& name) {
  for (const T& e : v)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

const std::vector<FunctionEntry>& operators() {
  static const std::vector<FunctionEntry> table = buildOperators();
  return table;
}
const std::vector<FunctionEntry>& functions() {
  static const std::vector<FunctionEntry> table = buildFunctions();
  return table;
}
const std::vector<DistributionEntry>& distributions() {
  static const std::vector<DistributionEntry> table = buildDistributions();
  return table;
}

const FunctionEntry* findOperator(const std::string& op) { return findIn(operators(), op); }
const FunctionEntry* findFunction(const std::string& name) { return findIn(functions(), name); }
const DistributionEntry* findDistribution(const std::string& name) { return findIn(distributions(), name); }

namespace {
bool endsWith(const std::string& name, const std::string& s) {
  return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
}
}  // namespace

const DistributionEntry* findDensityFunction(const std::string& name) {
  for (const char* suffix : {"_lpdf", "_lpmf"}) {
    std::string s(suffix);
    if (endsWith(name, s)) {
      const DistributionEntry* d = findDistribution(name.substr(0, name.size() - s.size()));
      if (d && d->discrete == (s == "_lpmf")) return d;
    }
  }
  std::string suffix = cdfSuffix(name);
  return suffix.empty() ? nullptr : findDistribution(name.substr(0, name.size() - suffix.size()));
}

bool hasCdf(const DistributionEntry& d) { return findKernelOp(d.name + "_lcdf") != nullptr; }

std::string cdfSuffix(const std::string& name) {
  for (const char* s : {"_lcdf", "_lccdf", "_cdf"})
    if (endsWith(name, s)) return s;
  return "";
}

}  // namespace pvi::stdlib
