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
  if (!w.variable.empty()) add("variable " + named(w.variable));
  if (!w.field.empty() && w.field != w.variable) add("column " + named(w.field));
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
  return (partitionName.empty() ? std::string("partition") : partitionName) + " " + named(label);
}

std::string unusableLabel(const std::string& label, const std::string& problem, const std::string& partitionName) {
  const std::string p = partitionName.empty() ? std::string("partition") : partitionName;
  return "the partition label " + quoted(label) + " cannot name the " + p + "'s output directory: " + problem +
         " (a fit writes each " + p + "'s local posterior to <locals-dir>/<label>/; labels must be file names: not "
         "empty, '.' or '..', without '/', '\\' or control characters, at most 255 bytes)";
}

namespace {

// The text escaped and, past kMessageTextChars characters (UTF-8 code points), cut; `quote` is
// '"', '\'' or 0 (none).
std::string clip(std::string_view text, char quote) {
  std::string s;
  if (quote) s += quote;
  size_t chars = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++chars;
  size_t n = 0;
  bool cut = false;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80 && ++n > kMessageTextChars) {  // cut at a character boundary
      cut = true;
      break;
    }
    if (quote == '"' && (c == '"' || c == '\\')) {
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
  if (cut) s += "...";
  if (quote) s += quote;
  if (cut) s += " (" + std::to_string(chars) + " characters)";
  return s;
}

}  // namespace

std::string quoted(std::string_view value) { return clip(value, '"'); }
std::string quoted(const std::string& value) { return clip(value, '"'); }
std::string quoted(const char* value) { return clip(value, '"'); }
std::string named(std::string_view name) { return clip(name, '\''); }
std::string clipped(std::string_view text) { return clip(text, 0); }

}  // namespace pvi
