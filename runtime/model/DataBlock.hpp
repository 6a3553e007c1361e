#pragma once
// The values of one data block (the shared data, or one partition's data), in declaration
// order, as the factor ABI passes them: one pointer per variable.
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

namespace pvi {

class DataBlock {
 public:
  DataBlock() = default;
  // Copies point at their own storage (the pointer table is rebuilt, never copied).
  DataBlock(const DataBlock& other) : values_(other.values_) { refresh(); }
  DataBlock(DataBlock&& other) noexcept : values_(std::move(other.values_)) { refresh(); }
  DataBlock& operator=(const DataBlock& other) {
    values_ = other.values_;
    refresh();
    return *this;
  }
  DataBlock& operator=(DataBlock&& other) noexcept {
    values_ = std::move(other.values_);
    refresh();
    return *this;
  }

  // Appends the next variable: an int (scalar or array) or a real (scalar or container,
  // matrices column-major).
  DataBlock& addInts(std::vector<int64_t> values);
  DataBlock& addInt(int64_t value) { return addInts({value}); }
  DataBlock& addReals(std::vector<double> values);
  DataBlock& addReal(double value) { return addReals({value}); }

  // One pointer per variable, stable until the block is changed.
  const void* const* pointers() const { return pointers_.data(); }
  size_t size() const { return values_.size(); }
  bool isInt(size_t k) const { return std::holds_alternative<std::vector<int64_t>>(values_.at(k)); }
  size_t length(size_t k) const {
    return std::visit([](const auto& v) { return v.size(); }, values_.at(k));
  }
  double realAt(size_t k, size_t i) const { return std::get<std::vector<double>>(values_.at(k)).at(i); }
  int64_t intAt(size_t k, size_t i) const { return std::get<std::vector<int64_t>>(values_.at(k)).at(i); }

 private:
  void refresh();
  std::vector<std::variant<std::vector<int64_t>, std::vector<double>>> values_;
  std::vector<const void*> pointers_;
};

}  // namespace pvi
