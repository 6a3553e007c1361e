#include "runtime/data/DataOrigins.hpp"

namespace pvi {

std::string elementName(const std::string& name, const std::vector<int64_t>& dims, size_t element) {
  if (dims.empty()) return name;
  std::string s = name + "[";
  size_t rest = element;
  for (size_t k = 0; k < dims.size(); ++k) {
    size_t d = dims[k] > 0 ? static_cast<size_t>(dims[k]) : 1;
    s += (k ? ", " : "") + std::to_string(rest % d + 1);
    rest /= d;
  }
  return s + "]";
}

std::string DataOrigins::describe(size_t partition, size_t variable, size_t element) const {
  const BlockOrigin* block = partition == kShared ? &shared : partition < partitions.size() ? &partitions[partition] : nullptr;
  if (block == nullptr || variable >= block->variables.size()) return "";
  const VariableOrigin& v = block->variables[variable];
  std::string s = elementName(v.name, v.dims, element);
  if (v.file.empty()) return s;
  s += " from " + v.file;
  if (!v.note.empty()) s += " (" + v.note + ")";
  if (v.rowLines.empty()) return s;
  size_t rows = v.rowIndexed ? v.rowLines.size() : 1;
  size_t row = element % rows, col = element / rows;
  s += " line " + std::to_string(v.rowLines[v.rowIndexed ? row : 0]);
  if (col < v.columns.size()) s += ", column '" + v.columns[col] + "'";
  return s;
}

}  // namespace pvi
