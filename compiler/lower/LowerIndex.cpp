// Indexing: views for single indices (an array's element, a vector's element, a matrix's column
// or element), kernels for rows and multi-indices, and the general `subscript` kernel for every
// other combination of slices and multi-indices. Assignment targets use the same pieces.
#include "compiler/lower/FunctionLowerer.hpp"

namespace pvi::lower {

using ir::Elem;
using ir::Inst;
using ir::Op;
using ir::ValueId;
using ir::VType;

namespace {

bool isSingle(const IndexSyntax& i) { return i.kind == IndexSyntax::Kind::Single && i.lo->type.isIntScalar(); }
bool isAll(const IndexSyntax& i) { return i.kind == IndexSyntax::Kind::Slice && !i.lo && !i.hi; }
bool isList(const IndexSyntax& i) { return i.kind == IndexSyntax::Kind::Single && !i.lo->type.isIntScalar(); }

// The IR dimension that each index of a value of checked type t applies to, in index order:
// the array dimensions (outermost first, stored last), then rows and columns.
std::vector<int> indexOrder(const Type& t, int rank) {
  std::vector<int> order;
  int arrays = static_cast<int>(t.arrayDims.size());
  for (int k = 0; k < arrays; ++k) order.push_back(rank - 1 - k);
  if (t.shape != Shape::Scalar) order.push_back(0);
  if (t.shape == Shape::Matrix) order.push_back(1);
  return order;
}

Type scalarOf(const Type& t) { return t.base == Base::Int ? Type::intScalar() : Type::realScalar(); }

}  // namespace

ValueId FunctionLowerer::element(ValueId base, ValueId i) {
  const VType& t = f_.at(base).type;
  VType out{t.elem, t.rank - 1, {ir::kNone, ir::kNone, ir::kNone, ir::kNone}};
  for (int d = 0; d + 1 < t.rank; ++d) out.dims[d] = t.dims[d];
  Inst el{Op::Element, out, {base, i}};
  return add(el);
}

size_t FunctionLowerer::applyViews(ValueId& base, Type& t, const std::vector<const IndexSyntax*>& idx) {
  size_t used = 0;
  while (used < idx.size()) {
    const IndexSyntax& i = *idx[used];
    if (t.isArray() || t.shape == Shape::Vector || t.shape == Shape::RowVector) {
      if (!isSingle(i)) break;
      base = element(base, intExpr(*i.lo));
      t = t.isArray() ? t.element() : scalarOf(t);
      ++used;
      continue;
    }
    // A matrix's column X[:, j] or element X[i, j] (the column first: it is contiguous).
    if (t.shape == Shape::Matrix && used + 1 < idx.size() && isSingle(*idx[used + 1]) && (isSingle(i) || isAll(i))) {
      base = element(base, intExpr(*idx[used + 1]->lo));
      if (isSingle(i)) {
        base = element(base, intExpr(*i.lo));
        t = scalarOf(t);
      } else {
        t = Type::vector(t.rows);
      }
      used += 2;
      continue;
    }
    break;
  }
  return used;
}

std::vector<ValueId> FunctionLowerer::subscriptOperands(ValueId base, const Type& t,
                                                        const std::vector<const IndexSyntax*>& idx, size_t from,
                                                        VType& result) {
  const VType bt = f_.at(base).type;
  std::vector<int> order = indexOrder(t, bt.rank);
  std::vector<ValueId> ops(static_cast<size_t>(2 * bt.rank), ir::kNone);
  std::vector<ValueId> len(bt.dims, bt.dims + bt.rank);
  std::vector<bool> kept(static_cast<size_t>(bt.rank), true);
  for (size_t k = from; k < idx.size(); ++k) {
    const IndexSyntax& i = *idx[k];
    size_t d = static_cast<size_t>(order.at(k - from));
    if (isSingle(i)) {
      ops[2 * d] = intExpr(*i.lo);
      kept[d] = false;
    } else if (isList(i)) {
      ops[2 * d] = lower(*i.lo);
      len[d] = f_.at(ops[2 * d]).type.dims[0];
    } else if (!isAll(i)) {  // a range; an empty one when hi < lo
      ValueId lo = i.lo ? intExpr(*i.lo) : constInt(1);
      ValueId hi = i.hi ? intExpr(*i.hi) : bt.dims[d];
      ops[2 * d] = lo;
      ops[2 * d + 1] = hi;
      len[d] = intArith("max", intArith("+", intArith("-", hi, lo), constInt(1)), constInt(0));
    }
  }
  result = VType{bt.elem, 0, {ir::kNone, ir::kNone, ir::kNone, ir::kNone}};
  for (size_t d = 0; d < kept.size(); ++d)
    if (kept[d]) result.dims[result.rank++] = len[d];
  return ops;
}

ValueId FunctionLowerer::index(const Expr& e) {
  const Expr& b = *e.args[0];
  std::vector<const IndexSyntax*> idx;
  for (const IndexSyntax& i : e.indices) idx.push_back(&i);
  // A variable held in a buffer: view the part first, then copy only that part.
  auto buffer = b.kind == ExprKind::Name ? buffers_.find(b.symbol) : buffers_.end();
  bool fromBuffer = buffer != buffers_.end();
  ValueId base = fromBuffer ? buffer->second : lower(b);
  Type t = b.type;
  size_t used = applyViews(base, t, idx);
  if (fromBuffer) base = load(base);
  if (used == idx.size()) return base;
  const VType bt = f_.at(base).type;
  size_t left = idx.size() - used;
  bool real = bt.elem == Elem::Real;
  if (!t.isArray() && t.shape == Shape::Matrix && real) {
    // A row: X[i] or X[i, :].
    if (isSingle(*idx[used]) && (left == 1 || (left == 2 && isAll(*idx[used + 1])))) {
      ValueId i = intExpr(*idx[used]->lo);
      return kernel("row", VType{Elem::Real, 1, {bt.dims[1], ir::kNone}}, {base, i});
    }
    // Rows of a column: X[idx, j].
    if (left == 2 && isList(*idx[used]) && isSingle(*idx[used + 1])) {
      ValueId column = element(base, intExpr(*idx[used + 1]->lo));
      ValueId list = lower(*idx[used]->lo);
      return kernel("gather", VType{Elem::Real, 1, {f_.at(list).type.dims[0], ir::kNone}}, {column, list});
    }
  }
  // A multi-index of a vector or of a one-dimensional array of reals: b[child].
  if (left == 1 && bt.rank == 1 && real && isList(*idx[used])) {
    ValueId list = lower(*idx[used]->lo);
    return kernel("gather", VType{Elem::Real, 1, {f_.at(list).type.dims[0], ir::kNone}}, {base, list});
  }
  VType result;
  std::vector<ValueId> ops = subscriptOperands(base, t, idx, used, result);
  ops.insert(ops.begin(), base);
  return kernel("subscript", result, ops);
}

FunctionLowerer::Target FunctionLowerer::target(ValueId buffer, const Type& t,
                                                const std::vector<const IndexSyntax*>& idx) {
  Target out{buffer, {}};
  Type rest = t;
  size_t used = applyViews(out.view, rest, idx);
  if (used < idx.size()) {
    VType part;
    out.subscript = subscriptOperands(out.view, rest, idx, used, part);
  }
  return out;
}

}  // namespace pvi::lower
