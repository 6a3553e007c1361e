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
        readSamplerComment(file, trim(text), lineNo);
        continue;
      }
      if (block_ != Block::None && block_ != Block::MetricOrEnd)
        fail(lineNo, "the adaptation block ends early: " + expected());
      block_ = Block::None;
      if (!haveHeader) {
        readHeader(file, line, lineNo);
        haveHeader = true;
        continue;
      }
      readRow(file.columns.size(), values, line, lineNo);
    }
    if (in.bad()) fail(lineNo, "read error");
    if (block_ != Block::None && block_ != Block::MetricOrEnd)
      fail(lineNo, "the adaptation block ends early: " + expected());
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
  // Where in a sampling file's adaptation block ("# Adaptation terminated", "# Step size = x",
  // the metric's title line and rows) the previous comment line left off.
  enum class Block { None, StepSize, MetricOrEnd, DiagonalRow, DenseRows };

  std::string expected() const {
    switch (block_) {
      case Block::StepSize: return "expected '# Step size = <number>'";
      case Block::DiagonalRow: return "expected the diagonal of the inverse metric";
      case Block::DenseRows:
        return "expected " + std::to_string(denseRows_.size() ? denseRows_.front().size() : 1) +
               " rows of the inverse metric, found " + std::to_string(denseRows_.size());
      default: return "";
    }
  }

  std::vector<double> readNumbers(std::string_view text, std::size_t lineNo, const char* what) const {
    std::vector<double> numbers;
    for (std::string_view field : splitCommas(text)) {
      const std::optional<double> x = parseDouble(trim(field));
      if (!x) fail(lineNo, std::string(what) + " value '" + std::string(trim(field)) + "' is not a number");
      numbers.push_back(*x);
    }
    return numbers;
  }

  void finishDense(StanCsvFile& file) {
    const auto n = static_cast<Eigen::Index>(denseRows_.size());
    Eigen::MatrixXd& m = file.adaptations.back().inverseMetricDense;
    m.resize(n, n);
    for (Eigen::Index i = 0; i < n; ++i) m.row(i) = Eigen::Map<const Eigen::RowVectorXd>(denseRows_[i].data(), n);
    denseRows_.clear();
    block_ = Block::None;
  }

  // The adaptation block and the timing lines of CmdStan's sampling output; other comments pass.
  void readSamplerComment(StanCsvFile& file, std::string_view text, std::size_t lineNo) {
    switch (block_) {
      case Block::StepSize: {
        const std::size_t eq = text.find('=');
        if (!text.starts_with("Step size") || eq == std::string_view::npos) fail(lineNo, expected());
        file.adaptations.back().stepSize = readNumbers(text.substr(eq + 1), lineNo, "step size").front();
        block_ = Block::MetricOrEnd;
        return;
      }
      case Block::MetricOrEnd:
        block_ = Block::None;
        if (text == "Diagonal elements of inverse mass matrix:") {
          block_ = Block::DiagonalRow;
          return;
        }
        if (text == "Elements of inverse mass matrix:") {
          block_ = Block::DenseRows;
          return;
        }
        break;  // no metric (unit_e): an ordinary comment
      case Block::DiagonalRow: {
        const std::vector<double> d = readNumbers(text, lineNo, "inverse metric");
        file.adaptations.back().inverseMetricDiagonal = Eigen::Map<const Eigen::VectorXd>(d.data(), std::ssize(d));
        block_ = Block::None;
        return;
      }
      case Block::DenseRows: {
        std::vector<double> row = readNumbers(text, lineNo, "inverse metric");
        if (!denseRows_.empty() && row.size() != denseRows_.front().size()) {
          fail(lineNo, "inverse metric row has " + std::to_string(row.size()) + " values, expected " +
                           std::to_string(denseRows_.front().size()));
        }
        denseRows_.push_back(std::move(row));
        if (denseRows_.size() == denseRows_.front().size()) finishDense(file);
        return;
      }
      case Block::None: break;
    }
    if (text == "Adaptation terminated") {
      file.adaptations.emplace_back();
      block_ = Block::StepSize;
      return;
    }
    readTiming(file, text, lineNo);
  }

  void readTiming(StanCsvFile& file, std::string_view text, std::size_t lineNo) const {
    const std::size_t unit = text.find(" seconds (");
    if (unit == std::string_view::npos) return;
    const std::string_view which = text.substr(unit + 10);
    double StanCsvTiming::*field = nullptr;
    if (which == "Warm-up)") field = &StanCsvTiming::warmupSeconds;
    if (which == "Sampling)") field = &StanCsvTiming::samplingSeconds;
    if (which == "Total)") field = &StanCsvTiming::totalSeconds;
    if (!field) return;
    std::string_view value = text.substr(0, unit);
    if (value.starts_with("Elapsed Time:")) value.remove_prefix(13);
    const std::optional<double> x = parseDouble(trim(value));
    if (!x) fail(lineNo, "time '" + std::string(trim(value)) + "' is not a number");
    if (field == &StanCsvTiming::warmupSeconds || !file.timing) file.timing.emplace();
    (*file.timing).*field = *x;
  }

  void readHeader(StanCsvFile& file, const std::string& line, std::size_t lineNo) const {
    std::set<std::string_view> seen;
    for (std::string_view name : splitCommas(line)) {
      if (trim(name).size() != name.size())
        fail(lineNo, "column name '" + std::string(name) + "' has surrounding spaces");
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
  Block block_ = Block::None;
  std::vector<std::vector<double>> denseRows_;
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
