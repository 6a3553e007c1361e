#include "runtime/data/CategoricalMapping.hpp"

#include <set>

#include "runtime/data/DataInputError.hpp"
#include "runtime/data/NumberText.hpp"

namespace pvi {

namespace {

[[noreturn]] void fail(const std::string& spec, const std::string& why) {
  throw DataInputError(DataErrorKind::Mapping, {},
                       "invalid categorical mapping " + quoted(spec) + ": " + why +
                           " (expected COLUMN=LABEL:INT[,LABEL:INT...], e.g. y=spam:1,nonspam:0)");
}

}  // namespace

std::optional<int64_t> CategoricalMapping::find(std::string_view label) const {
  const std::string key(trimBlanks(label));
  for (const auto& [l, v] : values)
    if (l == key) return v;
  return std::nullopt;
}

CategoricalMapping parseCategoricalMapping(const std::string& spec) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos) fail(spec, "no '='");
  CategoricalMapping m;
  m.column = std::string(trimBlanks(std::string_view(spec).substr(0, eq)));
  if (m.column.empty()) fail(spec, "no column name before '='");
  std::string_view rest = std::string_view(spec).substr(eq + 1);
  if (trimBlanks(rest).empty()) fail(spec, "no LABEL:INT after '='");
  std::set<std::string> seen;
  for (;;) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    size_t colon = item.rfind(':');
    if (colon == std::string_view::npos) fail(spec, "item " + quoted(std::string(item)) + " has no ':'");
    std::string label(trimBlanks(item.substr(0, colon)));
    IntParse value = parseIntText(item.substr(colon + 1));
    if (value.status != NumberStatus::Ok)
      fail(spec, "the value of label " + quoted(label) + " must be an integer, got " +
                     quoted(std::string(item.substr(colon + 1))));
    if (!seen.insert(label).second) fail(spec, "label " + quoted(label) + " is mapped twice");
    m.values.emplace_back(label, value.value);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return m;
}

void checkMappings(const std::vector<CategoricalMapping>& mappings) {
  std::set<std::string> columns;
  for (const CategoricalMapping& m : mappings) {
    if (m.column.empty()) throw DataInputError(DataErrorKind::Mapping, {}, "a categorical mapping has no column name");
    if (!columns.insert(m.column).second)
      throw DataInputError(DataErrorKind::Mapping, {}, "column " + named(m.column) + " has two categorical mappings");
    std::set<std::string> labels;
    for (const auto& [label, value] : m.values)
      if (!labels.insert(label).second)
        throw DataInputError(DataErrorKind::Mapping, {},
                             "the mapping of column " + named(m.column) + " maps " + quoted(label) + " twice");
  }
}

const CategoricalMapping* findMapping(const std::vector<CategoricalMapping>& mappings, std::string_view column) {
  for (const CategoricalMapping& m : mappings)
    if (m.column == column) return &m;
  return nullptr;
}

std::string suggestMapping(const std::string& column, const std::vector<std::string>& labels) {
  std::string s = column + "=";
  for (size_t i = 0; i < labels.size(); ++i) s += (i ? "," : "") + labels[i] + ":" + std::to_string(i);
  return s;
}

}  // namespace pvi
