#pragma once
// One data block (the shared data, or one partition's data) from CmdStan JSON: an object with
// one key per declared variable. A scalar is a number; a vector, row_vector or 1-D array is an
// array; a matrix is an array of rows; an array of vectors or a multi-dimensional array nests
// one level per index. Reals may be written as integers and as the strings "NaN", "Inf",
// "-Inf" (NaN is then refused: the model cannot use it); ints must be integers (1.0 is not).
// Values are stored column-major (the first index varies fastest), as DataBlock expects.
#include <set>
#include <string>
#include <vector>

#include "runtime/data/CategoricalMapping.hpp"
#include "runtime/data/DataOrigins.hpp"
#include "runtime/data/SizeExpression.hpp"
#include "runtime/data/SourceText.hpp"
#include "runtime/model/DataBlock.hpp"
#include "runtime/model/DataSchema.hpp"

namespace pvi {

// The block a JSON object fills.
struct JsonTarget {
  const DataSchema* schema = nullptr;
  bool partition = false;  // false: the shared block (`data { }`)
  std::string label;       // the partition's label, for messages
};

struct JsonBlock {
  DataBlock block;
  BlockOrigin origin;
  std::vector<std::string> ignored;  // keys the model does not declare anywhere (CmdStan ignores them too)
};

// Reads a checked text (checkSourceText). `env` holds the ints known so far (for a partition,
// the shared block's) and receives the block's own int scalars, which later sizes may use.
// Strings of a variable with a categorical mapping are mapped; the names of the mappings used
// are added to `usedMappings`. Throws DataInputError: Syntax (malformed JSON, duplicate keys),
// Unexpected (keys the block does not declare), Missing, Shape, Type, Value, Partition (an
// empty object for a partition), Mapping.
JsonBlock readJsonBlock(const SourceText& source, const JsonTarget& target, SizeEnvironment& env,
                        const std::vector<CategoricalMapping>& mappings, std::set<std::string>& usedMappings);

}  // namespace pvi
