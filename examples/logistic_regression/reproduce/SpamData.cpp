#include "SpamData.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace spam {
namespace {

std::ifstream openFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return in;
}

std::vector<std::string> splitCommas(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) out.push_back(cell);
  return out;
}

double parseNumber(const std::string& cell, const std::string& where) {
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  if (cell.empty() || end != cell.c_str() + cell.size())
    throw std::runtime_error(where + ": not a number: '" + cell + "'");
  return v;
}

void loadShared(const std::filesystem::path& file, SpamData& d) {
  std::ifstream in = openFile(file);
  const nlohmann::json j = nlohmann::json::parse(in);
  d.D = j.at("D").get<int>();
  d.priorSd = j.at("prior_sd").get<double>();
  const int n = j.at("N_test").get<int>();
  const auto& rows = j.at("X_test");
  const auto& labels = j.at("y_test");
  if (static_cast<int>(rows.size()) != n || static_cast<int>(labels.size()) != n)
    throw std::runtime_error(file.string() + ": X_test / y_test do not have N_test rows");
  d.Xtest.resize(n, d.D);
  d.ytest.resize(n);
  for (int i = 0; i < n; ++i) {
    if (static_cast<int>(rows[i].size()) != d.D)
      throw std::runtime_error(file.string() + ": X_test row of wrong length");
    for (int k = 0; k < d.D; ++k) d.Xtest(i, k) = rows[i][k].get<double>();
    d.ytest(i) = labels[i].get<int>();
  }
}

void loadClients(const std::filesystem::path& file, SpamData& d) {
  std::ifstream in = openFile(file);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = splitCommas(line);
  if (header.size() != static_cast<std::size_t>(d.D + 2) || header[0] != "client" || header[1] != "y" ||
      header[2] != "X.1" || header.back() != "X." + std::to_string(d.D))
    throw std::runtime_error(file.string() + ": expected the header client,y,X.1..X." + std::to_string(d.D));
  std::vector<std::vector<double>> rows;
  for (int lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = splitCommas(line);
    const std::string where = file.string() + ":" + std::to_string(lineNo);
    if (cells.size() != header.size()) throw std::runtime_error(where + ": wrong number of columns");
    std::vector<double> row;
    for (const auto& c : cells) row.push_back(parseNumber(c, where));
    rows.push_back(std::move(row));
  }
  const auto n = static_cast<Eigen::Index>(rows.size());
  d.Xtrain.resize(n, d.D);
  d.ytrain.resize(n);
  d.client.resize(rows.size());
  for (Eigen::Index i = 0; i < n; ++i) {
    d.client[i] = static_cast<int>(rows[i][0]);
    d.ytrain(i) = rows[i][1];
    for (int k = 0; k < d.D; ++k) d.Xtrain(i, k) = rows[i][k + 2];
  }
}

}  // namespace

SpamData loadSpamData(const std::filesystem::path& dir) {
  SpamData d;
  loadShared(dir / "data.json", d);
  loadClients(dir / "data_per_client.csv", d);
  return d;
}

}  // namespace spam
