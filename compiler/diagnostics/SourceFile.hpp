#pragma once
// A source file held in memory, with the tables that turn a position into line and column.
// Positions are code point indices, the unit the ANTLR lexer counts in.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pvi {

// Half-open range [begin, end) of code point indices into a SourceFile.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;
};

struct LineCol {
  int line = 1;  // 1-based
  int col = 1;   // 1-based, in code points
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

  LineCol lineCol(uint32_t pos) const;
  // The text of a 1-based line without its line terminator.
  std::string_view lineText(int line) const;
  // The source text covered by a span.
  std::string_view spanText(Span s) const;

  // Byte offset of the first invalid UTF-8 sequence, if any. ANTLR needs valid UTF-8.
  std::optional<size_t> firstInvalidUtf8() const { return invalidUtf8_; }
  // Pure ASCII: code point indices are byte offsets.
  bool isAscii() const { return ascii_; }
  // Code point index of a byte offset (valid for offsets up to the first invalid byte).
  uint32_t codePointOfByte(size_t byte) const;

 private:
  size_t byteOf(uint32_t pos) const;

  std::string path_;
  std::string text_;
  std::vector<uint32_t> lineStartCp_;    // code point index where each line starts
  std::vector<size_t> lineStartByte_;    // byte offset where each line starts
  std::optional<size_t> invalidUtf8_;
  bool ascii_ = true;
};

}  // namespace pvi
