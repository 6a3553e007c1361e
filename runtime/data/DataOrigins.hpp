#pragma once
// Where each bound data element came from, so that errors found after binding (CompiledModel's
// bound and NaN checks) can name the file, the CSV line and column, and the element's index.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pvi {

// One variable of one block.
struct VariableOrigin {
  std::string name;
  std::string file;
  std::vector<int64_t> dims;  // array dims then vector / matrix dims; empty for a scalar
  size_t arrayRank = 0;       // how many of dims are array dims
  // CSV only (empty for JSON): the line of each of the partition's rows, and the columns the
  // variable was read from, in column-major order of its non-row indices. A row-indexed variable
  // takes element (r, j) from line rowLines[r], column columns[j]; a per-partition constant has
  // one "row" (the partition's first line).
  std::vector<size_t> rowLines;
  std::vector<std::string> columns;
  bool rowIndexed = false;
  std::string note;  // e.g. "the row count of client 'b'" for an inferred size
};

struct BlockOrigin {
  std::vector<VariableOrigin> variables;  // in declaration order
};

struct DataOrigins {
  BlockOrigin shared;
  std::vector<BlockOrigin> partitions;

  // E.g. "X[12, 3] from data_per_client.csv line 14, column 'X.3'" or "X_test[3, 5] from
  // data.json"; element is the 0-based index into the variable's values (flatOffset).
  // partition == kShared for the shared block. Empty when nothing is known.
  static constexpr size_t kShared = static_cast<size_t>(-1);
  std::string describe(size_t partition, size_t variable, size_t element) const;
};

// "X[12, 3]" for element 11 + 30 * 2 of a 30-row matrix (1-based, as the model's language
// indexes); element is an offset in the layout of flatOffset.
std::string elementName(const std::string& name, const std::vector<int64_t>& dims, size_t element,
                        size_t arrayRank = 0);

}  // namespace pvi
