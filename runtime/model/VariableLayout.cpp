#include "runtime/model/VariableLayout.hpp"

#include <cmath>
#include <stdexcept>

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
      if (!(d >= 0) || d != std::floor(d))
        throw std::runtime_error("'" + v.name + "' has an invalid size " + std::to_string(d));
      e.dims.push_back(static_cast<int64_t>(d));
      e.size *= static_cast<size_t>(d);
    }
    size_ += e.size;
    vars_.push_back(std::move(e));
  }
}

std::vector<std::string> VariableLayout::elementNames() const {
  std::vector<std::string> names;
  names.reserve(size_);
  for (const VariableExtent& v : vars_) {
    // Memory order (docs/compiler.md): the element's own dims fastest, column-major (a matrix's
    // row index first); then the array dims, the last one fastest (row-major over the array).
    std::vector<size_t> order;
    for (size_t d = v.arrayRank; d < v.dims.size(); ++d) order.push_back(d);
    for (size_t d = v.arrayRank; d-- > 0;) order.push_back(d);
    std::vector<int64_t> index(v.dims.size(), 1);
    for (size_t i = 0; i < v.size; ++i) {
      std::string n = v.name;
      for (int64_t k : index) n += "." + std::to_string(k);
      names.push_back(std::move(n));
      for (size_t d : order) {
        if (++index[d] <= v.dims[d]) break;
        index[d] = 1;
      }
    }
  }
  return names;
}

}  // namespace pvi
