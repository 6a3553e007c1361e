#pragma once
// Types with symbolic sizes. A size is an integer expression over data (e.g. `N`, `K * 2`),
// kept as canonical text plus its value when it is a constant, so per-partition sizes may
// differ between partitions and are only known when data are bound.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pvi {

struct Size {
  std::string text;                // canonical spelling, e.g. "N" or "(N - 1)"; "?" if unknown
  std::optional<int64_t> value;    // set when the size is a compile-time constant

  static Size constant(int64_t v) { return Size{std::to_string(v), v}; }
  static Size symbol(std::string t) { return Size{std::move(t), std::nullopt}; }
  static Size unknown() { return Size{"?", std::nullopt}; }
  bool known() const { return text != "?"; }
};

enum class SizeRelation { Equal, Different, Unknown };
// Equal when both are the same constant or the same text; Different when two constants differ;
// Unknown otherwise (then the check is deferred to data binding).
SizeRelation compareSizes(const Size& a, const Size& b);

enum class Base { Int, Real };
enum class Shape { Scalar, Vector, RowVector, Matrix };

struct Type {
  Base base = Base::Real;
  Shape shape = Shape::Scalar;
  std::vector<Size> arrayDims;  // array[d1, ..., dn] of the element type
  Size rows;                    // vector: its length; matrix: rows
  Size cols;                    // row_vector: its length; matrix: columns
  bool error = false;           // the expression already had an error; suppress follow-ups

  static Type intScalar() { return Type{Base::Int, Shape::Scalar, {}, {}, {}, false}; }
  static Type realScalar() { return Type{Base::Real, Shape::Scalar, {}, {}, {}, false}; }
  static Type vector(Size n) { return Type{Base::Real, Shape::Vector, {}, std::move(n), {}, false}; }
  static Type rowVector(Size n) { return Type{Base::Real, Shape::RowVector, {}, {}, std::move(n), false}; }
  static Type matrix(Size r, Size c) { return Type{Base::Real, Shape::Matrix, {}, std::move(r), std::move(c), false}; }
  static Type poisoned() { Type t; t.error = true; return t; }

  bool isArray() const { return !arrayDims.empty(); }
  bool isScalar() const { return !isArray() && shape == Shape::Scalar; }
  bool isIntScalar() const { return isScalar() && base == Base::Int; }
  bool isEigen() const { return !isArray() && shape != Shape::Scalar; }  // vector, row_vector, matrix
  // The element type of an array (one array level removed).
  Type element() const;
  // Same type with the element shape's sizes only (no arrays).
  Type withoutArrays() const;
};

// "int", "real", "vector[N]", "row_vector[N]", "matrix[N, D]", "array[N] int", ...
std::string toString(const Type& t);
// The shape kind without sizes: "int", "vector", "array[] real", ...
std::string kindName(const Type& t);

}  // namespace pvi
