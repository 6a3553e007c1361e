#pragma once
// The error raised for bad data input (files, encodings, JSON and CSV syntax, variables that
// do not match the model's data blocks). A DataError, so callers that bind data catch one type;
// the kind and the location are also available separately, for tools and the embedding API.
#include <cstddef>
#include <string>
#include <string_view>

#include "runtime/model/CompiledModel.hpp"

namespace pvi {

enum class DataErrorKind {
  File,        // unreadable or empty file
  Encoding,    // not UTF-8 text (UTF-16 byte order mark, Latin-1 bytes, NUL bytes)
  Syntax,      // malformed JSON or CSV
  Missing,     // a declared variable (or one of its CSV columns) is not given
  Unexpected,  // a JSON key or CSV column that the model does not declare
  Shape,       // wrong nesting, ragged arrays, lengths that disagree with the declared sizes
  Type,        // wrong kind of value: a real or a string for an int, null, an object
  Value,       // NaN, a number out of range, a per-partition constant that varies
  Partition,   // partition column or labels: missing, single, empty, duplicated
  Mapping,     // categorical mappings: bad syntax, unmapped value, unused mapping
};

const char* kindName(DataErrorKind kind);

// Where the error is; every part is optional (empty or 0 when unknown or not applicable).
struct DataLocation {
  std::string file;           // path, or the name given to an in-memory text
  size_t line = 0;            // 1-based (for CSV: the line where the record starts)
  size_t column = 0;          // 1-based character column, for syntax errors
  std::string partitionName;  // e.g. "client"
  std::string partition;      // the partition's label, e.g. "3"
  std::string variable;       // the model's variable
  std::string field;          // the CSV column or JSON key, when it differs from the variable
};

// what() reads "FILE:LINE:COL: client '3', variable 'X', column 'X.3': DETAIL".
class DataInputError : public DataError {
 public:
  DataInputError(DataErrorKind kind, DataLocation where, const std::string& detail);
  DataErrorKind kind() const { return kind_; }
  const DataLocation& where() const { return where_; }
  const std::string& detail() const { return detail_; }

 private:
  DataErrorKind kind_;
  DataLocation where_;
  std::string detail_;
};

// "client '3'" (or "partition '3'" without a partition name); the label as named() quotes it.
std::string partitionPhrase(const std::string& partitionName, const std::string& label);

// Why a partition label is refused (partitionLabelProblem gives `problem`): "the partition label
// "a/b" cannot name the client's output directory: it contains '/' (...)".
std::string unusableLabel(const std::string& label, const std::string& problem, const std::string& partitionName);

// Input text (a cell, a key, a header, a label) as messages show it: control characters escaped
// as \xHH, and text longer than kMessageTextChars characters cut to its first
// kMessageTextChars characters followed by "... (N characters)", so that a 1 MiB cell never
// fills the terminal. Every piece of input a data error echoes goes through one of these.
inline constexpr size_t kMessageTextChars = 60;
// "say \"hi\"" in double quotes ('"' and '\' escaped): a value.
// (Overloads for std::string and const char*: exact matches, preferred over std::quoted, which
// argument-dependent lookup finds for std::string arguments.)
std::string quoted(std::string_view value);
std::string quoted(const std::string& value);
std::string quoted(const char* value);
// 'X.3' in single quotes: a name (column, key, label).
std::string named(std::string_view name);
// The text without quotes (lists such as "the columns are a, b, c").
std::string clipped(std::string_view text);

}  // namespace pvi
