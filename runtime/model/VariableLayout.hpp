#pragma once
// Concrete sizes and flat element names of a list of variables, e.g. the constrained globals
// written by the generated constrain function: "alpha", "beta.1", ..., "Sigma.2.1" (Stan CSV
// style, 1-based), in the order of the flat arrays: a vector or matrix column-major, an array
// row-major over its indices with each element contiguous (docs/compiler.md), so
// array[2] vector[3] mu gives mu.1.1, mu.1.2, mu.1.3, mu.2.1, ...
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/model/DataSchema.hpp"

namespace pvi {

struct VariableExtent {
  std::string name;
  std::vector<int64_t> dims;  // array dims then vector / matrix dims; empty for a scalar
  size_t arrayRank = 0;       // how many of dims are array dims
  size_t offset = 0;          // of its first element in the flat array
  size_t size = 1;            // number of elements
};

// The flat layout of one variable's values in generated code: the element's own dims fastest,
// column-major (a matrix's row index first), then the array dims, the last one fastest. `index`
// and `dims` list the array dims then the element dims, 0-based; arrayRank is how many of them
// are array dims.
size_t flatOffset(const std::vector<int64_t>& index, const std::vector<int64_t>& dims, size_t arrayRank);
std::vector<int64_t> flatIndex(size_t offset, const std::vector<int64_t>& dims, size_t arrayRank);

class VariableLayout {
 public:
  VariableLayout() = default;
  // `shapes` holds each variable's dims in order, as the generated shapes functions write them;
  // consumes rank() entries per variable starting at *cursor and advances it. Throws
  // std::runtime_error when `shapes` is too short or holds a negative or non-integral size, or
  // when a count overflows (CompiledModel refuses sizes too large for memory before this).
  VariableLayout(const std::vector<VariableInfo>& vars, const std::vector<double>& shapes, size_t* cursor);

  const std::vector<VariableExtent>& variables() const { return vars_; }
  size_t size() const { return size_; }
  std::vector<std::string> elementNames() const;

 private:
  std::vector<VariableExtent> vars_;
  size_t size_ = 0;
};

}  // namespace pvi
