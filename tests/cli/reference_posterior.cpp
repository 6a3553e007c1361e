#include "reference_posterior.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace pvi::test {
namespace {

std::string unquote(std::string s) {
  if (s.size() >= 2 && s.front() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

}  // namespace

std::map<std::string, Reference> readReference(const std::string& file) {
  std::ifstream in(std::string(PVI_SOURCE_DIR) + "/tests/reference/" + file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string f; std::getline(hs, f, ',');) header.push_back(unquote(f));
  const auto index = [&](const std::string& name) {
    for (std::size_t k = 0; k < header.size(); ++k)
      if (header[k] == name) return k;
    throw std::runtime_error(file + " has no column " + name);
  };
  std::map<std::string, Reference> out;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string v; std::getline(ls, v, ',');) f.push_back(unquote(v));
    if (f.size() != header.size()) continue;
    Reference r{std::stod(f[index("mean")]), std::stod(f[index("sd")]), 0.0};
    const bool hasMcse = std::find(header.begin(), header.end(), "mcse_mean") != header.end();
    r.mcse = hasMcse ? std::stod(f[index("mcse_mean")]) : r.sd / std::sqrt(std::stod(f[index("n_eff")]));
    out[f[0]] = r;
  }
  return out;
}

}  // namespace pvi::test
