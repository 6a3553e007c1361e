#pragma once
// Evaluating the size expressions of data declarations ("N", "D", "K + 1", as DataSchema holds
// them) over the ints bound so far, to check each dimension of a value as it is read. Only
// integer literals, names, + - * / % and parentheses are evaluated; anything else (a function
// call, an unknown name) leaves the size unknown here, and CompiledModel's generated counts
// still check the total length.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pvi {

// Int scalars bound so far, by name (the shared block's, then the partition's own), and the file
// (or text name) each came from, so that a size check can name the file of the size too: the
// wrong value may be D in data.json rather than the columns of the CSV file being read.
struct SizeEnvironment : std::map<std::string, int64_t> {
  using std::map<std::string, int64_t>::map;
  std::map<std::string, std::string> sources;  // name -> file, where known
};

// The value of `expr`, or nullopt when it cannot be evaluated (see above) or overflows.
std::optional<int64_t> evaluateSize(const std::string& expr, const SizeEnvironment& env);

// The variable names an expression reads (identifiers not followed by '(').
std::vector<std::string> sizeNames(const std::string& expr);

}  // namespace pvi
