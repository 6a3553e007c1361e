#pragma once
// Explicit mappings from labels to integers for categorical columns, e.g. the Spambase label
// column: CategoricalMapping{"y", {{"spam", 1}, {"nonspam", 0}}}, or on the command line
// `--map y=spam:1,nonspam:0`. Nothing is mapped implicitly: a non-numeric value in a column
// without a mapping is an error, and so is a value of a mapped column that the mapping lacks
// (numbers included: every value of a mapped column must be one of its labels).
//
// `column` names a CSV column ("y", "X.3") or a JSON variable ("y"); labels are compared after
// dropping surrounding spaces and tabs, like every CSV value.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pvi {

struct CategoricalMapping {
  std::string column;
  std::vector<std::pair<std::string, int64_t>> values;  // label -> integer

  std::optional<int64_t> find(std::string_view label) const;
};

// Parses COLUMN=LABEL:INT[,LABEL:INT...]. A label runs to the last ':' of its item, so it may
// contain ':' but not ','. Throws DataInputError (Mapping) on bad syntax, a non-integer value, an
// empty column name or a repeated label.
CategoricalMapping parseCategoricalMapping(const std::string& spec);

// Refuses two mappings of the same column; throws DataInputError (Mapping).
void checkMappings(const std::vector<CategoricalMapping>& mappings);

// The mapping of a column, or nullptr.
const CategoricalMapping* findMapping(const std::vector<CategoricalMapping>& mappings, std::string_view column);

// A suggested --map argument for the given labels, numbered 0, 1, ... in the given order:
// "y=nonspam:0,spam:1".
std::string suggestMapping(const std::string& column, const std::vector<std::string>& labels);

}  // namespace pvi
