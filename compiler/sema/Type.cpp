#include "compiler/sema/Type.hpp"

namespace pvi {

SizeRelation compareSizes(const Size& a, const Size& b) {
  if (a.value && b.value) return *a.value == *b.value ? SizeRelation::Equal : SizeRelation::Different;
  if (a.known() && b.known() && a.text == b.text) return SizeRelation::Equal;
  return SizeRelation::Unknown;
}

Type Type::element() const {
  Type t = *this;
  if (!t.arrayDims.empty()) t.arrayDims.erase(t.arrayDims.begin());
  return t;
}

Type Type::withoutArrays() const {
  Type t = *this;
  t.arrayDims.clear();
  return t;
}

namespace {
std::string elemString(const Type& t, bool withSizes) {
  auto br = [&](const std::string& inner) { return withSizes ? "[" + inner + "]" : std::string(); };
  switch (t.shape) {
    case Shape::Scalar: return t.base == Base::Int ? "int" : "real";
    case Shape::Vector: return "vector" + br(t.rows.text);
    case Shape::RowVector: return "row_vector" + br(t.cols.text);
    case Shape::Matrix: return "matrix" + br(t.rows.text + ", " + t.cols.text);
  }
  return "?";
}
}  // namespace

std::string toString(const Type& t) {
  if (t.error) return "<error>";
  std::string s;
  if (t.isArray()) {
    s = "array[";
    for (size_t i = 0; i < t.arrayDims.size(); ++i) s += (i ? ", " : "") + t.arrayDims[i].text;
    s += "] ";
  }
  return s + elemString(t, true);
}

std::string kindName(const Type& t) {
  if (t.error) return "<error>";
  std::string s;
  if (t.isArray()) s = "array[" + std::string(t.arrayDims.size() - 1, ',') + "] ";
  return s + elemString(t, false);
}

}  // namespace pvi
