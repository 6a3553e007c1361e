#include "runtime/model/DataBlock.hpp"

namespace pvi {

DataBlock& DataBlock::addInts(std::vector<int64_t> values) {
  values_.emplace_back(std::move(values));
  refresh();
  return *this;
}

DataBlock& DataBlock::addReals(std::vector<double> values) {
  values_.emplace_back(std::move(values));
  refresh();
  return *this;
}

void DataBlock::refresh() {
  pointers_.clear();
  for (const auto& v : values_)
    pointers_.push_back(std::visit([](const auto& vec) { return static_cast<const void*>(vec.data()); }, v));
}

}  // namespace pvi
