#include "runtime/data/DataOrigins.hpp"

#include <algorithm>

#include "runtime/model/VariableLayout.hpp"

namespace pvi {

std::string elementName(const std::string& name, const std::vector<int64_t>& dims, size_t element,
                        size_t arrayRank) {
  if (dims.empty()) return name;
  std::string s = name + "[";
  std::vector<int64_t> index = flatIndex(element, dims, arrayRank);
  for (size_t k = 0; k < index.size(); ++k) s += (k ? ", " : "") + std::to_string(index[k] + 1);
  return s + "]";
}

std::string DataOrigins::describe(size_t partition, size_t variable, size_t element) const {
  const BlockOrigin* block = partition == kShared ? &shared : partition < partitions.size() ? &partitions[partition] : nullptr;
  if (block == nullptr || variable >= block->variables.size()) return "";
  const VariableOrigin& v = block->variables[variable];
  std::string s = elementName(v.name, v.dims, element, v.arrayRank);
  if (v.file.empty()) return s;
  s += " from " + v.file;
  if (!v.note.empty()) s += " (" + v.note + ")";
  if (v.rowLines.empty()) return s;
  // The row is the first index of a row-indexed variable; the column, the column-major position
  // of the other indices (the order of `columns`).
  std::vector<int64_t> index = v.dims.empty() ? std::vector<int64_t>{} : flatIndex(element, v.dims, v.arrayRank);
  const size_t skip = v.rowIndexed && !index.empty() ? 1 : 0;
  size_t row = skip ? static_cast<size_t>(index[0]) : 0, col = 0, stride = 1;
  for (size_t k = skip; k < index.size(); ++k) {
    col += static_cast<size_t>(index[k]) * stride;
    stride *= static_cast<size_t>(std::max<int64_t>(v.dims[k], 1));
  }
  s += " line " + std::to_string(v.rowLines[v.rowIndexed ? row : 0]);
  if (col < v.columns.size()) s += ", column '" + v.columns[col] + "'";
  return s;
}

}  // namespace pvi
