#include "runtime/output/StanCsvReader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include "runtime/output/Numbers.hpp"

namespace pvi::output {

std::optional<std::size_t> StanCsvFile::columnIndex(std::string_view name) const {
  for (std::size_t j = 0; j < columns.size(); ++j) {
    if (columns[j] == name) return j;
  }
  return std::nullopt;
}

namespace {

std::string_view trim(std::string_view s) {
  const auto isSpace = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> splitCommas(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

void addConfig(std::map<std::string, std::string>& config, std::string_view comment) {
  const std::size_t eq = comment.find('=');
  if (eq == std::string_view::npos) return;
  const std::string_view key = trim(comment.substr(0, eq));
  std::string_view value = trim(comment.substr(eq + 1));
  constexpr std::string_view kDefault = "(Default)";
  if (value.size() >= kDefault.size() && value.substr(value.size() - kDefault.size()) == kDefault) {
    value = trim(value.substr(0, value.size() - kDefault.size()));
  }
  if (!key.empty()) config[std::string(key)] = std::string(value);
}

class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(std::size_t line, const std::string& problem) const {
    throw StanCsvError(source_ + ":" + std::to_string(line) + ": " + problem);
  }

  StanCsvFile parse(std::istream& in) {
    StanCsvFile file;
    std::vector<double> values;
    std::string line;
    std::size_t lineNo = 0;
    bool haveHeader = false;
    while (std::getline(in, line)) {
      ++lineNo;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (trim(line).empty()) continue;
      if (line.front() == '#') {
        std::string_view text = std::string_view(line).substr(1);
        file.comments.emplace_back(text);
        if (!haveHeader) addConfig(file.config, text);
        continue;
      }
      if (!haveHeader) {
        readHeader(file, line, lineNo);
        haveHeader = true;
        continue;
      }
      readRow(file.columns.size(), values, line, lineNo);
    }
    if (in.bad()) fail(lineNo, "read error");
    if (!haveHeader) fail(lineNo, lineNo == 0 ? "empty file" : "no column header (only comment lines)");

    const std::size_t cols = file.columns.size();
    std::size_t rows = values.size() / cols;
    std::size_t first = 0;
    const auto method = file.config.find("method");
    if (method != file.config.end() && method->second == "variational") {
      if (rows == 0) fail(lineNo, "a variational file must have at least the mean row");
      file.mean = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(cols));
      first = 1;
    }
    rows -= first;
    file.draws = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        values.data() + first * cols, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    return file;
  }

 private:
  void readHeader(StanCsvFile& file, const std::string& line, std::size_t lineNo) const {
    std::set<std::string_view> seen;
    for (std::string_view name : splitCommas(line)) {
      if (trim(name).size() != name.size()) fail(lineNo, "column name '" + std::string(name) + "' has surrounding spaces");
      if (name.empty()) fail(lineNo, "empty column name in the header");
      if (!seen.insert(name).second) fail(lineNo, "duplicate column name '" + std::string(name) + "'");
      file.columns.emplace_back(name);
    }
  }

  void readRow(std::size_t cols, std::vector<double>& values, const std::string& line, std::size_t lineNo) const {
    const std::vector<std::string_view> fields = splitCommas(line);
    if (fields.size() != cols) {
      fail(lineNo, "expected " + std::to_string(cols) + " values, found " + std::to_string(fields.size()));
    }
    for (std::size_t j = 0; j < fields.size(); ++j) {
      const std::optional<double> x = parseDouble(trim(fields[j]));
      if (!x) fail(lineNo, "value " + std::to_string(j + 1) + " ('" + std::string(fields[j]) + "') is not a number");
      values.push_back(*x);
    }
  }

  std::string source_;
};

}  // namespace

StanCsvFile parseStanCsv(std::istream& in, const std::string& sourceName) { return Parser(sourceName).parse(in); }

StanCsvFile readStanCsv(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw StanCsvError(path.string() + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw StanCsvError(path.string() + ": cannot open: " + std::strerror(errno));
  return parseStanCsv(in, path.string());
}

}  // namespace pvi::output
