#pragma once
// The declared dimensions of a data variable and the checks of actual dimensions against them,
// shared by the JSON and CSV readers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/data/DataInputError.hpp"
#include "runtime/data/SizeExpression.hpp"
#include "runtime/model/DataSchema.hpp"

namespace pvi {

// Array dims then vector / matrix dims, as size expressions.
std::vector<std::string> declaredDims(const DataField& field);

// What dimension k counts, for messages: "elements", "rows", "columns", "entries along index 2".
std::string dimensionWord(const DataField& field, size_t k);

// How a value of this type is written in CmdStan JSON, for messages: "a number", "an array of
// numbers", "an array of rows (arrays of numbers)", "3 levels of nested arrays".
std::string jsonShapeWord(const DataField& field);

// " (D from data.json)": the files of the ints `expr` reads that came from another file than
// `file` (the one whose value is being checked); empty when there are none.
std::string sizeSources(const std::string& expr, const SizeEnvironment& env, const std::string& file);

// The declared size of dimension k, or nullopt when it cannot be evaluated here; throws
// DataInputError (Shape) at `where` when it evaluates to a negative number.
std::optional<int64_t> declaredSize(const DataField& field, size_t k, const SizeEnvironment& env,
                                    const DataLocation& where);

// Throws DataInputError (Shape) at `where` when dimension k is known and differs from `actual`:
// "'X' has 4 rows, but its type matrix[N, D] needs N = 5", or with a size from another file
// "'X' has 3 columns, but its type matrix[N, D] needs D = 0 (D from data.json)".
void checkDimension(const DataField& field, size_t k, int64_t actual, const SizeEnvironment& env,
                    const DataLocation& where);

}  // namespace pvi
