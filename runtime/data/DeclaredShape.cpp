#include "runtime/data/DeclaredShape.hpp"

#include <algorithm>

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

std::string sizeSources(const std::string& expr, const SizeEnvironment& env, const std::string& file) {
  std::vector<std::pair<std::string, std::string>> byFile;  // file, names (in order of first use)
  for (const std::string& name : sizeNames(expr)) {
    auto it = env.sources.find(name);
    if (it == env.sources.end() || it->second == file) continue;
    auto group = std::find_if(byFile.begin(), byFile.end(), [&](const auto& g) { return g.first == it->second; });
    if (group == byFile.end()) byFile.emplace_back(it->second, name);
    else if (group->second.find(name) == std::string::npos) group->second += ", " + name;
  }
  std::string s;
  for (const auto& [f, names] : byFile) s += (s.empty() ? "" : "; ") + names + " from " + f;
  return s.empty() ? s : " (" + s + ")";
}

std::optional<int64_t> declaredSize(const DataField& field, size_t k, const SizeEnvironment& env,
                                    const DataLocation& where) {
  std::string expr = declaredDims(field).at(k);
  std::optional<int64_t> size = evaluateSize(expr, env);
  if (size && *size < 0)
    throw DataInputError(DataErrorKind::Shape, where,
                         "the size " + expr + " = " + std::to_string(*size) + " in its type " + field.type +
                             " is negative" + sizeSources(expr, env, where.file));
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
                           ", but its type " + field.type + " needs " + needs + sizeSources(expr, env, where.file));
}

}  // namespace pvi
