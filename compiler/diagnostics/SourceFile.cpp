#include "compiler/diagnostics/SourceFile.hpp"

#include <algorithm>

namespace pvi {

namespace {
// Length of the UTF-8 sequence starting at s[i], or 0 when it is malformed.
size_t utf8SequenceLength(const std::string& s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  if (len == 2 && c < 0xC2) return 0;                                // overlong
  if (len == 3 && c == 0xE0 && byte(i + 1) < 0xA0) return 0;         // overlong
  if (len == 3 && c == 0xED && byte(i + 1) >= 0xA0) return 0;        // surrogate
  if (len == 4 && c == 0xF0 && byte(i + 1) < 0x90) return 0;         // overlong
  if (len == 4 && (c > 0xF4 || (c == 0xF4 && byte(i + 1) >= 0x90))) return 0;  // > U+10FFFF
  return len;
}
}  // namespace

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  lineStartCp_.push_back(0);
  lineStartByte_.push_back(0);
  uint32_t cp = 0;
  for (size_t i = 0; i < text_.size();) {
    size_t len = utf8SequenceLength(text_, i);
    if (len == 0) {
      invalidUtf8_ = i;
      ascii_ = false;
      break;
    }
    char c = text_[i];
    if (len > 1) ascii_ = false;
    i += len;
    ++cp;
    if (c == '\n') {
      lineStartCp_.push_back(cp);
      lineStartByte_.push_back(i);
    }
  }
}

LineCol SourceFile::lineCol(uint32_t pos) const {
  auto it = std::upper_bound(lineStartCp_.begin(), lineStartCp_.end(), pos);
  size_t line = static_cast<size_t>(it - lineStartCp_.begin());  // 1-based
  return {static_cast<int>(line), static_cast<int>(pos - lineStartCp_[line - 1]) + 1};
}

std::string_view SourceFile::lineText(int line) const {
  if (line < 1 || static_cast<size_t>(line) > lineStartByte_.size()) return {};
  size_t b = lineStartByte_[line - 1];
  size_t e = b;
  size_t limit = invalidUtf8_.value_or(text_.size());
  while (e < limit && text_[e] != '\n' && text_[e] != '\r') ++e;
  return std::string_view(text_).substr(b, e - b);
}

size_t SourceFile::byteOf(uint32_t pos) const {
  LineCol lc = lineCol(pos);
  size_t b = lineStartByte_[lc.line - 1];
  size_t limit = invalidUtf8_.value_or(text_.size());
  for (int k = 1; k < lc.col && b < limit; ++k) b += std::max<size_t>(1, utf8SequenceLength(text_, b));
  return std::min(b, limit);
}

std::string_view SourceFile::spanText(Span s) const {
  size_t b = byteOf(s.begin);
  size_t e = byteOf(s.end);
  if (e < b) e = b;
  return std::string_view(text_).substr(b, e - b);
}

uint32_t SourceFile::codePointOfByte(size_t byte) const {
  auto it = std::upper_bound(lineStartByte_.begin(), lineStartByte_.end(), byte);
  size_t line = static_cast<size_t>(it - lineStartByte_.begin());
  uint32_t cp = lineStartCp_[line - 1];
  for (size_t b = lineStartByte_[line - 1]; b < byte;) {
    size_t len = utf8SequenceLength(text_, b);
    b += len == 0 ? 1 : len;
    ++cp;
  }
  return cp;
}

}  // namespace pvi
