#include "runtime/data/Csv.hpp"

#include "runtime/data/DataInputError.hpp"

namespace pvi {

namespace {

class CsvParser {
 public:
  explicit CsvParser(const SourceText& src) : src_(src), t_(src.text) {}

  CsvTable run() {
    CsvTable table;
    std::vector<std::string> record;
    size_t line = 0;
    while (next(record, line)) {
      if (table.header.empty() && table.headerLine == 0) {
        table.header = std::move(record);
        table.headerLine = line;
        continue;
      }
      if (record.size() != table.header.size())
        fail(line, 0,
             "this row has " + std::to_string(record.size()) + " field" + (record.size() == 1 ? "" : "s") +
                 ", the header (line " + std::to_string(table.headerLine) + ") has " +
                 std::to_string(table.header.size()));
      table.rows.push_back(std::move(record));
      table.lines.push_back(line);
    }
    if (table.headerLine == 0) throw DataInputError(DataErrorKind::File, {.file = src_.name}, "the CSV file has no header");
    return table;
  }

 private:
  // Reads the next non-empty record; false at the end of the text.
  bool next(std::vector<std::string>& record, size_t& recordLine) {
    record.clear();
    // Skip empty lines.
    while (pos_ < t_.size() && (t_[pos_] == '\n' || t_[pos_] == '\r')) newline();
    if (pos_ >= t_.size()) return false;
    recordLine = line_;
    std::string field;
    for (;;) {
      field.clear();
      if (pos_ < t_.size() && t_[pos_] == '"') {
        quotedField(field);
      } else {
        size_t start = pos_;
        while (pos_ < t_.size() && t_[pos_] != ',' && t_[pos_] != '\n' && t_[pos_] != '\r') {
          if (t_[pos_] == '"')
            fail(line_, column(), "a double quote inside an unquoted field (quote the whole field and double the quote: \"a\"\"b\")");
          ++pos_;
        }
        field.assign(t_, start, pos_ - start);
      }
      record.push_back(std::move(field));
      if (pos_ >= t_.size()) return true;
      if (t_[pos_] == ',') {
        ++pos_;
        continue;
      }
      newline();  // end of the record
      return true;
    }
  }

  void quotedField(std::string& field) {
    size_t openLine = line_, openColumn = column();
    ++pos_;
    for (;;) {
      if (pos_ >= t_.size())
        fail(openLine, openColumn, "unterminated quoted field (the quote opened here is never closed)");
      char c = t_[pos_];
      if (c == '"') {
        if (pos_ + 1 < t_.size() && t_[pos_ + 1] == '"') {
          field += '"';
          pos_ += 2;
          continue;
        }
        ++pos_;
        if (pos_ < t_.size() && t_[pos_] != ',' && t_[pos_] != '\n' && t_[pos_] != '\r')
          fail(line_, column(), "text after the closing quote of a quoted field");
        return;
      }
      if (c == '\n' || c == '\r') {
        size_t before = pos_;
        newline();
        field.append(t_, before, pos_ - before);  // line breaks inside quotes are kept as written
        continue;
      }
      field += c;
      ++pos_;
    }
  }

  // Consumes one line break (CRLF, LF or CR) at pos_.
  void newline() {
    if (t_[pos_] == '\r' && pos_ + 1 < t_.size() && t_[pos_ + 1] == '\n') ++pos_;
    ++pos_;
    ++line_;
    lineStart_ = pos_;
  }

  size_t column() const {
    size_t c = 1;
    for (size_t i = lineStart_; i < pos_ && i < t_.size(); ++i)
      if ((static_cast<unsigned char>(t_[i]) & 0xC0) != 0x80) ++c;
    return c;
  }

  [[noreturn]] void fail(size_t line, size_t col, const std::string& detail) const {
    throw DataInputError(DataErrorKind::Syntax, {.file = src_.name, .line = line, .column = col},
                         "malformed CSV: " + detail);
  }

  const SourceText& src_;
  const std::string& t_;
  size_t pos_ = 0, line_ = 1, lineStart_ = 0;
};

bool needsQuotes(const std::string& f) {
  if (f.find_first_of(",\"\r\n") != std::string::npos) return true;
  return !f.empty() && (f.front() == ' ' || f.front() == '\t' || f.back() == ' ' || f.back() == '\t');
}

}  // namespace

CsvTable parseCsv(const SourceText& source) { return CsvParser(source).run(); }

std::string formatCsvRecord(const std::vector<std::string>& fields) {
  if (fields.size() == 1 && fields[0].empty()) return "\"\"";
  std::string s;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) s += ',';
    const std::string& f = fields[i];
    if (!needsQuotes(f)) {
      s += f;
      continue;
    }
    s += '"';
    for (char c : f) {
      if (c == '"') s += '"';
      s += c;
    }
    s += '"';
  }
  return s;
}

}  // namespace pvi
