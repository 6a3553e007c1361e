#pragma once
// CSV as RFC 4180 writes it: fields separated by commas, records by CRLF or LF (a lone CR also
// ends a record), a field in double quotes may hold commas, line breaks and doubled quotes ("").
// Strict where a silent guess could change the data: a quote inside an unquoted field, text
// after a closing quote, an unterminated quote and rows with a different number of fields than
// the header are errors. Empty lines are skipped (a one-column record with an empty field is
// written "" by RFC 4180 writers). Fields are kept as written (no trimming).
#include <cstddef>
#include <string>
#include <vector>

#include "runtime/data/SourceText.hpp"

namespace pvi {

struct CsvTable {
  std::vector<std::string> header;
  size_t headerLine = 0;
  std::vector<std::vector<std::string>> rows;  // each as long as the header
  std::vector<size_t> lines;                   // the line where each row starts (1-based)
};

// Parses a checked text (checkSourceText); throws DataInputError (Syntax, naming line and
// column; File when there is no header).
CsvTable parseCsv(const SourceText& source);

// One record as RFC 4180 writes it (no line terminator): fields holding a comma, quote, CR or
// LF, or with leading / trailing space, are quoted; a lone empty field is written "".
std::string formatCsvRecord(const std::vector<std::string>& fields);

}  // namespace pvi
