#include "runtime/data/DataInputError.hpp"

#include <cstdio>

namespace pvi {

namespace {

std::string format(const DataLocation& w, const std::string& detail) {
  std::string s;
  if (!w.file.empty()) {
    s = w.file;
    if (w.line > 0) s += ":" + std::to_string(w.line);
    if (w.line > 0 && w.column > 0) s += ":" + std::to_string(w.column);
    s += ": ";
  }
  std::string context;
  auto add = [&](const std::string& part) { context += (context.empty() ? "" : ", ") + part; };
  if (!w.partition.empty()) add(partitionPhrase(w.partitionName, w.partition));
  if (!w.variable.empty()) add("variable '" + w.variable + "'");
  if (!w.field.empty() && w.field != w.variable) add("column '" + w.field + "'");
  if (!context.empty()) s += context + ": ";
  return s + detail;
}

}  // namespace

const char* kindName(DataErrorKind kind) {
  switch (kind) {
    case DataErrorKind::File: return "file";
    case DataErrorKind::Encoding: return "encoding";
    case DataErrorKind::Syntax: return "syntax";
    case DataErrorKind::Missing: return "missing";
    case DataErrorKind::Unexpected: return "unexpected";
    case DataErrorKind::Shape: return "shape";
    case DataErrorKind::Type: return "type";
    case DataErrorKind::Value: return "value";
    case DataErrorKind::Partition: return "partition";
    case DataErrorKind::Mapping: return "mapping";
  }
  return "data";
}

DataInputError::DataInputError(DataErrorKind kind, DataLocation where, const std::string& detail)
    : DataError(format(where, detail)), kind_(kind), where_(std::move(where)), detail_(detail) {}

std::string partitionPhrase(const std::string& partitionName, const std::string& label) {
  return (partitionName.empty() ? std::string("partition") : partitionName) + " '" + label + "'";
}

std::string quoted(const std::string& value) {
  constexpr size_t kMax = 40;
  std::string s = "\"";
  size_t n = 0;
  for (unsigned char c : value) {
    if (++n > kMax && (c & 0xC0) != 0x80) {  // cut at a character boundary
      s += "...";
      break;
    }
    if (c == '"' || c == '\\') {
      s += '\\';
      s += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      s += buf;
    } else {
      s += static_cast<char>(c);
    }
  }
  return s + "\"";
}

}  // namespace pvi
