#include "runtime/data/SourceText.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/data/DataInputError.hpp"

namespace pvi {

namespace {

// Data files larger than this are refused rather than read into memory.
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 32;

bool startsWith(const std::string& s, std::initializer_list<unsigned char> bytes) {
  if (s.size() < bytes.size()) return false;
  size_t i = 0;
  for (unsigned char b : bytes)
    if (static_cast<unsigned char>(s[i++]) != b) return false;
  return true;
}

// Length of the valid UTF-8 sequence at s[i], or 0 (overlong forms, surrogates and code points
// above U+10FFFF are invalid).
size_t utf8Length(const std::string& s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size()) return 0;
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  return n;
}

std::string hexByte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", c);
  return buf;
}

}  // namespace

LineColumn lineColumnAt(const std::string& text, size_t offset) {
  LineColumn lc;
  offset = std::min(offset, text.size());
  for (size_t i = 0; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++lc.line;
      lc.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // count characters, not continuation bytes
      ++lc.column;
    }
  }
  return lc;
}

void checkSourceText(SourceText& source) {
  const std::string& t = source.text;
  auto fail = [&](DataErrorKind kind, size_t offset, const std::string& detail) {
    DataLocation where{.file = source.name};
    if (offset != std::string::npos) {
      LineColumn lc = lineColumnAt(t, offset);
      where.line = lc.line;
      where.column = lc.column;
    }
    throw DataInputError(kind, where, detail);
  };
  const char* resave = "; data files must be UTF-8: save the file as UTF-8";
  if (startsWith(t, {0x00, 0x00, 0xFE, 0xFF}) || startsWith(t, {0xFF, 0xFE, 0x00, 0x00}))
    fail(DataErrorKind::Encoding, std::string::npos, std::string("the file is UTF-32 (byte order mark)") + resave);
  if (startsWith(t, {0xFE, 0xFF}) || startsWith(t, {0xFF, 0xFE}))
    fail(DataErrorKind::Encoding, std::string::npos, std::string("the file is UTF-16 (byte order mark)") + resave);
  if (startsWith(t, {0xEF, 0xBB, 0xBF})) source.text.erase(0, 3);
  if (t.find_first_not_of(" \t\r\n") == std::string::npos)
    fail(DataErrorKind::File, std::string::npos, t.empty() ? "the file is empty" : "the file holds only blank space");
  for (size_t i = 0; i < t.size();) {
    if (t[i] == '\0')
      fail(DataErrorKind::Encoding, i,
           std::string("NUL byte: the text is binary or UTF-16 without a byte order mark") + resave);
    size_t n = utf8Length(t, i);
    if (n == 0) {
      unsigned char c = static_cast<unsigned char>(t[i]);
      std::string hint = c >= 0xA0 ? " (Latin-1 or Windows-1252?)" : "";
      fail(DataErrorKind::Encoding, i, "invalid UTF-8 byte " + hexByte(c) + hint + resave);
    }
    i += n;
  }
}

SourceText readSourceFile(const std::string& path) {
  namespace fs = std::filesystem;
  DataLocation where{.file = path};
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw DataInputError(DataErrorKind::File, where, "cannot read the file: no such file");
  if (fs::is_directory(st)) throw DataInputError(DataErrorKind::File, where, "cannot read the file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataInputError(DataErrorKind::File, where, std::string("cannot read the file: ") + std::strerror(errno));
  std::uintmax_t size = fs::is_regular_file(st) ? fs::file_size(path, ec) : 0;
  if (!ec && size > kMaxFileBytes)
    throw DataInputError(DataErrorKind::File, where, "the file is larger than 4 GiB");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw DataInputError(DataErrorKind::File, where, "reading the file failed");
  SourceText src{path, std::move(s).str()};
  checkSourceText(src);
  return src;
}

}  // namespace pvi
