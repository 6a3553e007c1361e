#include "runtime/data/DeclaredShape.hpp"

namespace pvi {

std::vector<std::string> declaredDims(const DataField& field) {
  std::vector<std::string> dims = field.arrayDims;
  dims.insert(dims.end(), field.shapeDims.begin(), field.shapeDims.end());
  return dims;
}

std::string dimensionWord(const DataField& field, size_t k) {
  size_t arrays = field.arrayDims.size();
  if (field.rank() == 1) return "elements";
  if (k >= arrays && field.shape == ValueShape::Matrix) return k == arrays ? "rows" : "columns";
  return "entries along index " + std::to_string(k + 1);
}

std::string jsonShapeWord(const DataField& field) {
  size_t r = field.rank();
  if (r == 0) return "a number";
  if (r == 1) return "an array of numbers";
  if (r == 2 && field.arrayDims.empty()) return "an array of rows (arrays of numbers)";
  if (r == 2) return "an array of arrays of numbers";
  return std::to_string(r) + " levels of nested arrays";
}

std::optional<int64_t> declaredSize(const DataField& field, size_t k, const SizeEnvironment& env,
                                    const DataLocation& where) {
  std::string expr = declaredDims(field).at(k);
  std::optional<int64_t> size = evaluateSize(expr, env);
  if (size && *size < 0)
    throw DataInputError(DataErrorKind::Shape, where,
                         "the size " + expr + " = " + std::to_string(*size) + " in its type " + field.type +
                             " is negative");
  return size;
}

void checkDimension(const DataField& field, size_t k, int64_t actual, const SizeEnvironment& env,
                    const DataLocation& where) {
  std::optional<int64_t> size = declaredSize(field, k, env, where);
  if (!size || *size == actual) return;
  std::string expr = declaredDims(field).at(k);
  std::string needs = expr == std::to_string(*size) ? expr : expr + " = " + std::to_string(*size);
  throw DataInputError(DataErrorKind::Shape, where,
                       "'" + field.name + "' has " + std::to_string(actual) + " " + dimensionWord(field, k) +
                           ", but its type " + field.type + " needs " + needs);
}

}  // namespace pvi
