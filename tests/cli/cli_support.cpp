#include "cli_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace pvi::test {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path = std::filesystem::temp_directory_path() /
         ("pvi-cli-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(path);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

ProcessResult run(const std::string& command) {
  TempDir io;
  const std::string out = (io.path / "out").string(), err = (io.path / "err").string();
  const int status = std::system((command + " >'" + out + "' 2>'" + err + "'").c_str());
  ProcessResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string example(const std::string& name) { return std::string(PVI_SOURCE_DIR) + "/examples/" + name; }
std::string pvic() { return PVIC_PATH; }

std::map<std::string, double> drawsExcessKurtosis(const std::filesystem::path& dir, const std::string& stem) {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
  for (int chain = 1; std::filesystem::exists(dir / (stem + "_" + std::to_string(chain) + ".csv")); ++chain) {
    std::ifstream in(dir / (stem + "_" + std::to_string(chain) + ".csv"));
    bool header = true;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> cells;
      std::stringstream cellStream(line);
      for (std::string cell; std::getline(cellStream, cell, ',');) cells.push_back(cell);
      if (header) {
        header = false;
        if (names.empty()) {
          names = cells;
          columns.resize(names.size());
        }
        continue;
      }
      for (size_t c = 0; c < cells.size() && c < columns.size(); ++c) {
        char* end = nullptr;
        const double v = std::strtod(cells[c].c_str(), &end);
        columns[c].push_back(end == cells[c].c_str() ? NAN : v);  // not a number: the column's kurtosis is NaN
      }
    }
  }
  std::map<std::string, double> out;
  for (size_t c = 0; c < names.size(); ++c) {
    const std::vector<double>& x = columns[c];
    const double n = static_cast<double>(x.size());
    double mean = 0, m2 = 0, m4 = 0;
    for (double v : x) mean += v / n;
    for (double v : x) {
      m2 += (v - mean) * (v - mean) / n;
      m4 += std::pow(v - mean, 4) / n;
    }
    out[names[c]] = m2 > 0 ? m4 / (m2 * m2) - 3 : NAN;
  }
  return out;
}

double relativeSdError(double excessKurtosis, double ess) {
  return std::sqrt(std::max(excessKurtosis + 2, 0.0) / (4 * ess));
}

}  // namespace pvi::test
