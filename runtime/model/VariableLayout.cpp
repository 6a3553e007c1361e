#include "runtime/model/VariableLayout.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "runtime/model/MemoryLimit.hpp"

namespace pvi {

VariableLayout::VariableLayout(const std::vector<VariableInfo>& vars, const std::vector<double>& shapes,
                               size_t* cursor) {
  for (const VariableInfo& v : vars) {
    VariableExtent e;
    e.name = v.name;
    e.offset = size_;
    e.arrayRank = v.arrayDims.size();
    for (size_t k = 0; k < v.rank(); ++k) {
      if (*cursor >= shapes.size())
        throw std::runtime_error("the model's shapes function returned too few sizes (at '" + v.name + "')");
      double d = shapes[(*cursor)++];
      // Below 2^63, so that the conversion is exact and defined.
      if (!(d >= 0) || d != std::floor(d) || !(d < 9223372036854775808.0))
        throw std::runtime_error("'" + v.name + "' has an invalid size " + std::to_string(d));
      e.dims.push_back(static_cast<int64_t>(d));
    }
    std::vector<uint64_t> dims(e.dims.begin(), e.dims.end());
    const std::optional<uint64_t> n = checkedProduct(dims);
    if (!n || *n > SIZE_MAX || __builtin_add_overflow(size_, static_cast<size_t>(*n), &size_))
      throw std::runtime_error("'" + v.name + "' has more elements than can be counted (" + elementCountText(dims) +
                               ")");
    e.size = static_cast<size_t>(*n);
    vars_.push_back(std::move(e));
  }
}

namespace {

// Calls visit(d) for every dimension position from fastest to slowest (no allocation: this runs
// for every value loaded and every element named).
template <class Visit>
void fastestFirst(size_t rank, size_t arrayRank, Visit&& visit) {
  for (size_t d = arrayRank; d < rank; ++d) visit(d);
  for (size_t d = arrayRank; d-- > 0;) visit(d);
}

}  // namespace

size_t flatOffset(const std::vector<int64_t>& index, const std::vector<int64_t>& dims, size_t arrayRank) {
  size_t offset = 0, stride = 1;
  fastestFirst(dims.size(), arrayRank, [&](size_t d) {
    offset += static_cast<size_t>(index[d]) * stride;
    stride *= static_cast<size_t>(dims[d]);
  });
  return offset;
}

std::vector<int64_t> flatIndex(size_t offset, const std::vector<int64_t>& dims, size_t arrayRank) {
  std::vector<int64_t> index(dims.size(), 0);
  fastestFirst(dims.size(), arrayRank, [&](size_t d) {
    const size_t n = dims[d] > 0 ? static_cast<size_t>(dims[d]) : 1;
    index[d] = static_cast<int64_t>(offset % n);
    offset /= n;
  });
  return index;
}

std::vector<std::string> VariableLayout::elementNames() const {
  std::vector<std::string> names;
  names.reserve(size_);
  for (const VariableExtent& v : vars_) {
    for (size_t i = 0; i < v.size; ++i) {
      std::string n = v.name;
      for (int64_t k : flatIndex(i, v.dims, v.arrayRank)) n += "." + std::to_string(k + 1);
      names.push_back(std::move(n));
    }
  }
  return names;
}

}  // namespace pvi
