#pragma once
// The text of one data input (a file, or a string given through the API) and its checks: it
// must be non-empty UTF-8 text. A UTF-8 byte order mark is dropped; UTF-16 / UTF-32 (with a
// byte order mark or NUL bytes) and invalid UTF-8 such as Latin-1 bytes are refused.
#include <cstddef>
#include <string>

namespace pvi {

struct SourceText {
  std::string name;  // for messages: the path, or a name such as "<shared data>"
  std::string text;
};

// Reads and checks a file; throws DataInputError (File, Encoding).
SourceText readSourceFile(const std::string& path);

// Checks a text in place (drops a UTF-8 byte order mark); throws DataInputError (File for an
// empty or blank text, Encoding).
void checkSourceText(SourceText& source);

// 1-based line and character column (UTF-8 code points) of a byte offset.
struct LineColumn {
  size_t line = 1;
  size_t column = 1;
};
LineColumn lineColumnAt(const std::string& text, size_t offset);

}  // namespace pvi
