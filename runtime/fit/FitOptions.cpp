#include "runtime/fit/FitOptions.hpp"

#include <stdexcept>

namespace pvi {

const std::vector<std::string>& algorithmNames() {
  static const std::vector<std::string> names = {"auto", "pvi", "sfvi", "sfvi-avg", "ep", "ep-eta", "ep-mu"};
  return names;
}

std::string algorithmName(Algorithm a) { return algorithmNames().at(static_cast<std::size_t>(a)); }

Algorithm parseAlgorithm(const std::string& name) {
  const auto& names = algorithmNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Algorithm>(i);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown algorithm '" + name + "' (expected one of: " + list + ")");
}

}  // namespace pvi
